package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Positioned;
import dev.sluice.api.SluiceException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The input read ahead on a thread of its own gives what reading it on the caller's thread gives: the same records
 * in the same order, the same position after each, the same error after the same records, and close stops it.
 */
class InputAheadTest {
  private static final Schema SCHEMA = Inputs.parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
      + "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"name\",\"type\":\"string\"},"
      + "{\"name\":\"x\",\"type\":\"double\"}]}");

  @TempDir
  Path dir;

  /** JSON Lines with {@code n} records from {@code first}, a blank line after every 7th (lines and records differ). */
  private Path jsonl(String name, int first, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = first; i < first + n; i++) {
      b.append("{\"id\":").append(i).append(",\"name\":\"n").append(i).append("\",\"x\":").append(i / 8.0)
          .append("}\n");
      if (i % 7 == 0) {
        b.append('\n');
      }
    }
    return Inputs.write(dir, name, b.toString());
  }

  private static List<Supplier<CloseableIterator<GenericRecord>>> parts(Path... files) {
    List<Supplier<CloseableIterator<GenericRecord>>> parts = new ArrayList<>();
    for (Path f : files) {
      parts.add(() -> RecordSources.open(f, InputFormat.JSON, SCHEMA, InputOptions.defaults()));
    }
    return parts;
  }

  /** Every record with the position the iterator gave after returning it. */
  private static List<String> drain(CloseableIterator<GenericRecord> it) {
    List<String> seen = new ArrayList<>();
    assertEquals(Optional.empty(), ((Positioned) it).position());
    while (it.hasNext()) {
      GenericRecord r = it.next();
      seen.add(r + " @ " + ((Positioned) it).position().orElse("-"));
    }
    return seen;
  }

  @Test
  void sameRecordsAndPositionsAsReadingOnTheCallersThread() {
    // more than the batches waiting, over three files (one empty)
    Path a = jsonl("a.jsonl", 0, 3 * InputAhead.BATCH_RECORDS + 5);
    Path empty = Inputs.write(dir, "empty.jsonl", "");
    Path c = jsonl("c.jsonl", 100_000, 2 * InputAhead.BATCHES * InputAhead.BATCH_RECORDS + 1);
    List<String> plain;
    try (CloseableIterator<GenericRecord> it = RecordSources.concat(parts(a, empty, c))) {
      plain = drain(it);
    }
    List<String> ahead;
    try (CloseableIterator<GenericRecord> it = InputAhead.of(new RecordSources.Concat(parts(a, empty, c)))) {
      ahead = drain(it);
      assertFalse(it.hasNext());
    }
    assertEquals(3 * InputAhead.BATCH_RECORDS + 5 + 2 * InputAhead.BATCHES * InputAhead.BATCH_RECORDS + 1,
        plain.size());
    assertEquals(plain, ahead);
    // positions name the file and its line (blank lines counted), as the file's own source says
    assertTrue(ahead.get(8).endsWith("@ a.jsonl:11"), ahead.get(8));
    assertTrue(ahead.get(ahead.size() - 1).contains("@ c.jsonl:"), ahead.get(ahead.size() - 1));
  }

  @Test
  void badInputIsThrownAfterTheRecordsBeforeItWithTheSameMessage() {
    Path a = jsonl("a.jsonl", 0, 2000);
    Path bad = Inputs.write(dir, "bad.jsonl", "{\"id\":1,\"name\":\"a\",\"x\":1}\n{\"id\":\"two\",\"name\":\"b\",\"x\":2}\n");
    List<String> plainSeen = new ArrayList<>();
    SluiceException plain = assertThrows(SluiceException.class, () -> {
      try (CloseableIterator<GenericRecord> it = RecordSources.concat(parts(a, bad))) {
        while (it.hasNext()) {
          plainSeen.add(it.next().toString());
        }
      }
    });
    List<String> aheadSeen = new ArrayList<>();
    SluiceException ahead = assertThrows(SluiceException.class, () -> {
      try (CloseableIterator<GenericRecord> it = InputAhead.of(new RecordSources.Concat(parts(a, bad)))) {
        while (it.hasNext()) {
          aheadSeen.add(it.next().toString());
        }
      }
    });
    assertEquals(SluiceException.Kind.BAD_INPUT, ahead.kind());
    assertEquals(plain.getMessage(), ahead.getMessage());
    assertTrue(ahead.getMessage().contains("bad.jsonl:2"), ahead.getMessage());
    assertEquals(2001, aheadSeen.size());
    assertEquals(plainSeen, aheadSeen);
  }

  @Test
  void closeStopsTheReaderMidInput() throws InterruptedException {
    Path a = jsonl("a.jsonl", 0, 20 * InputAhead.BATCH_RECORDS);
    CloseableIterator<GenericRecord> it = InputAhead.of(new RecordSources.Concat(parts(a)));
    assertTrue(it.hasNext());
    it.next();
    // the reader fills the queue and waits on it
    Thread.sleep(200);
    assertTrue(readerAlive());
    it.close();
    assertFalse(readerAlive());
  }

  private static boolean readerAlive() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("sluice-input-ahead") && t.isAlive());
  }
}
