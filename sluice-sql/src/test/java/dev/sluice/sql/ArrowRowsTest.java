package dev.sluice.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.memory.RootAllocator;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/** The Arrow feed on the kind of thread DuckDB pulls batches on. */
class ArrowRowsTest {
  private static final Schema SCHEMA = SchemaBuilder.record("r").fields().requiredString("id").optionalLong("n")
      .endRecord();

  @Test
  void aThreadWithoutAContextClassLoaderReadsWithOneAndIsLeftAsItWas() throws InterruptedException {
    List<GenericRecord> rows = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      GenericRecord r = new GenericData.Record(SCHEMA);
      r.put("id", "k" + i);
      r.put("n", i % 2 == 0 ? null : (long) i);
      rows.add(r);
    }
    List<ClassLoader> seen = new ArrayList<>();
    CloseableIterator<GenericRecord> recording = CloseableIterator.of(rows).map(r -> {
      // what a reader looking a resource up through the context class loader would get (snappy does)
      seen.add(Thread.currentThread().getContextClassLoader());
      return r;
    });
    AtomicReference<Throwable> failed = new AtomicReference<>();
    AtomicReference<ClassLoader> after = new AtomicReference<>(ClassLoader.getSystemClassLoader());
    List<String> read = new ArrayList<>();
    // DuckDB's native threads are attached to the JVM without a context class loader: the same here
    Thread attached = new Thread(() -> {
      try (RootAllocator a = new RootAllocator(); ArrowRows arrow = new ArrowRows(a, SCHEMA, recording, 2)) {
        while (arrow.loadNextBatch()) {
          for (int i = 0; i < arrow.getVectorSchemaRoot().getRowCount(); i++) {
            read.add(arrow.getVectorSchemaRoot().getVector("id").getObject(i) + "="
                + arrow.getVectorSchemaRoot().getVector("n").getObject(i));
          }
        }
        after.set(Thread.currentThread().getContextClassLoader());
      } catch (IOException | RuntimeException e) {
        failed.set(e);
      }
    });
    attached.setContextClassLoader(null);
    attached.start();
    attached.join();
    assertNull(failed.get());
    assertEquals(List.of("k0=null", "k1=1", "k2=null", "k3=3", "k4=null"), read);
    assertEquals(5, seen.size());
    assertTrue(seen.stream().allMatch(l -> l != null), seen.toString());
    assertNotNull(seen.get(0));
    assertNull(after.get(), "the thread's own (absent) context class loader is put back");
  }

  /**
   * DuckDB's release of the exported stream closes the reader on DuckDB's thread while the statement's caller closes
   * it too: both at once, many times over, each reader's buffers are released once (no "RefCnt has gone negative"),
   * its scan is closed once, and the allocator ends with nothing outstanding.
   */
  @Test
  void closedFromTwoThreadsAtOnceReleasesOnce() throws IOException, InterruptedException {
    try (RootAllocator a = new RootAllocator()) {
      for (int round = 0; round < 300; round++) {
        List<GenericRecord> rows = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
          GenericRecord r = new GenericData.Record(SCHEMA);
          r.put("id", "k" + i);
          r.put("n", (long) i);
          rows.add(r);
        }
        AtomicInteger scanCloses = new AtomicInteger();
        Iterator<GenericRecord> source = rows.iterator();
        CloseableIterator<GenericRecord> it = new CloseableIterator<>() {
          @Override
          public boolean hasNext() {
            return source.hasNext();
          }

          @Override
          public GenericRecord next() {
            return source.next();
          }

          @Override
          public void close() {
            scanCloses.incrementAndGet();
          }
        };
        ArrowRows arrow = new ArrowRows(a, SCHEMA, it, 16);
        assertTrue(arrow.loadNextBatch());
        CyclicBarrier together = new CyclicBarrier(2);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Runnable close = () -> {
          try {
            together.await();
            arrow.close();
          } catch (Exception | Error e) {
            failed.compareAndSet(null, e);
          }
        };
        Thread other = new Thread(close);
        other.start();
        close.run();
        other.join();
        assertNull(failed.get(), () -> "round: " + failed.get());
        assertEquals(1, scanCloses.get());
        assertEquals(false, arrow.loadNextBatch(), "a closed reader loads nothing");
      }
      assertEquals(0, a.getAllocatedMemory());
    }
  }
}
