package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.SluiceException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link ReadAhead}: the rows in the source's order across batch boundaries, the source's failure at the row where
 * it happened, and a close before the end that stops the reading thread (also one blocked on a full queue) and closes
 * the source after the thread has left it.
 */
class ReadAheadTest {
  /** Counts 0..n-1, failing at {@code failAt} if not negative; records its close and the thread that closed it. */
  private static final class Source implements CloseableIterator<Long> {
    final long n;
    final long failAt;
    final AtomicLong produced = new AtomicLong();
    final AtomicBoolean closed = new AtomicBoolean();
    volatile boolean usedAfterClose;

    Source(long n, long failAt) {
      this.n = n;
      this.failAt = failAt;
    }

    @Override
    public boolean hasNext() {
      if (closed.get()) {
        usedAfterClose = true;
      }
      return produced.get() < n;
    }

    @Override
    public Long next() {
      long v = produced.getAndIncrement();
      if (v == failAt) {
        throw SluiceException.storage("read", "part-" + v, new java.io.IOException("disk gone"));
      }
      if (v >= n) {
        throw new NoSuchElementException();
      }
      return v;
    }

    @Override
    public void close() {
      closed.set(true);
    }
  }

  @Test
  void rowsComeInTheSourcesOrderAcrossBatches() {
    long n = ReadAhead.BATCH * 7L + 13;
    Source s = new Source(n, -1);
    List<Long> seen = new ArrayList<>();
    try (ReadAhead<Long, Void> r = ReadAhead.of(s, "sluice-read-ahead", "the rows")) {
      while (r.hasNext()) {
        seen.add(r.next());
      }
      assertFalse(r.hasNext(), "the end stays the end");
      assertThrows(NoSuchElementException.class, r::next);
    }
    assertEquals(n, seen.size());
    for (int i = 0; i < seen.size(); i++) {
      assertEquals(i, seen.get(i));
    }
    assertTrue(s.closed.get());
  }

  @Test
  void anEmptySourceEndsAtOnce() {
    Source s = new Source(0, -1);
    try (ReadAhead<Long, Void> r = ReadAhead.of(s, "sluice-read-ahead", "the rows")) {
      assertFalse(r.hasNext());
    }
    assertTrue(s.closed.get());
  }

  @Test
  void theSourcesFailureReachesTheCallerAfterTheRowsBeforeIt() {
    long failAt = ReadAhead.BATCH * 2L + 5;
    Source s = new Source(failAt * 3, failAt);
    long rows = 0;
    SluiceException thrown = null;
    try (ReadAhead<Long, Void> r = ReadAhead.of(s, "sluice-read-ahead", "the rows")) {
      while (r.hasNext()) {
        assertEquals(rows, r.next());
        rows++;
      }
    } catch (SluiceException e) {
      thrown = e;
    }
    assertTrue(thrown != null, "the failure was thrown");
    assertTrue(thrown.getMessage().contains("part-" + failAt), thrown.getMessage());
    // every row before the failing one came through, also those of the batch it cut short
    assertEquals(failAt, rows);
    assertTrue(s.closed.get());
  }

  @Test
  void anErrorIsThrownAsItself() {
    OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
    CloseableIterator<Long> failing = new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        throw oom;
      }

      @Override
      public Long next() {
        throw new NoSuchElementException();
      }

      @Override
      public void close() {
      }
    };
    try (ReadAhead<Long, Void> r = ReadAhead.of(failing, "sluice-read-ahead", "the rows")) {
      assertSame(oom, assertThrows(OutOfMemoryError.class, r::hasNext));
    }
  }

  @Test
  void closingBeforeTheEndStopsTheReaderThenClosesTheSource() throws InterruptedException {
    Source s = new Source(Long.MAX_VALUE, -1);
    ReadAhead<Long, Void> r = ReadAhead.of(s, "sluice-read-ahead", "the rows");
    assertEquals(0, r.next());
    // the reader fills the queue and blocks on it
    long before;
    do {
      before = s.produced.get();
      Thread.sleep(50);
    } while (s.produced.get() != before);
    assertTrue(before <= (long) ReadAhead.BATCH * (ReadAhead.BATCHES + 2), "bounded: " + before);
    r.close();
    assertTrue(s.closed.get());
    long atClose = s.produced.get();
    Thread.sleep(100);
    assertEquals(atClose, s.produced.get(), "the reader stopped");
    assertFalse(s.usedAfterClose, "the source was used after it was closed");
  }
}
