package dev.sluice.internal.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.MergeMode;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A scan whose merged records spill to disk gives exactly the entries of the in-memory scan. */
class SpillingLogScanTest {
  @TempDir
  Path dir;

  @TempDir
  Path spill;

  private final LocalStorage storage = new LocalStorage();

  private static Timeline timeline() {
    List<Instant> out = new ArrayList<>();
    for (int i = 1; i <= 9; i++) {
      out.add(Instant.completed("00" + i, Action.DELTACOMMIT));
    }
    return Timeline.of(out);
  }

  private void session(LogBlock... blocks) {
    try (LogWriter w = LogWriter.open(storage, dir.toString(), LogFixture.FILE_ID, LogFixture.BASE, "0-0-0", 1 << 30)) {
      w.appendBlocks(List.of(blocks));
    }
  }

  private MergedLogRecords scan(Optional<Long> budget) throws IOException {
    LogScanner.Builder b = LogScanner.builder(storage).logFiles(LogFixture.logFiles(storage, dir.toString()))
        .timeline(timeline()).latestInstant("009").readerSchema(LogFixture.SCHEMA).precombineField(Optional.of("ts"))
        .merger(new RecordMerger(MergeMode.EVENT_TIME_ORDERING));
    budget.ifPresent(bytes -> b.spillBeyond(bytes, spill));
    return b.build().scan();
  }

  /** Every entry as text: key → partition, record, ordering with its class, delete flags. */
  private static Map<String, String> entries(MergedLogRecords m) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<LogRecord> it = m.all()) {
      while (it.hasNext()) {
        LogRecord r = it.next();
        Object o = r.ordering();
        out.put(r.key(), r.partitionPath() + " | " + r.record() + " | " + (o == null ? "null" : o.getClass().getSimpleName() + ":" + o)
            + " | " + r.isDelete() + "/" + r.hardDelete());
      }
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 3000})
  void spilledEntriesEqualInMemoryOnes(long budget) throws IOException {
    List<GenericRecord> first = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      first.add(LogFixture.trip("k" + i, "p" + (i % 3), 10 + i % 4, i));
    }
    session(DataBlock.of("001", LogFixture.SCHEMA, first));
    // deletes carrying every ordering type a delete block holds, some winning and some losing against the data
    session(DeleteBlock.of("002", List.of(DeleteRecord.of("k1", "p1"), new DeleteRecord("k2", "p2", 1L),
        new DeleteRecord("k3", "p0", 99L), new DeleteRecord("k4", "p1", "s"), new DeleteRecord("k5", "p2", 2.5),
        new DeleteRecord("k6", "p0", 1.5f), new DeleteRecord("k7", "p1", true), new DeleteRecord("k8", "p2", null),
        new DeleteRecord("x1", "p0", LocalDate.of(2024, 2, 29)), new DeleteRecord("x2", "p1", new BigDecimal("12.5")),
        new DeleteRecord("x3", "p2", ByteBuffer.wrap(new byte[] {1, 2})),
        new DeleteRecord("x4", "p0", java.time.Instant.parse("2024-01-02T03:04:05.123456Z")),
        new DeleteRecord("x5", "p1", LocalTime.of(1, 2, 3)))));
    session(DataBlock.of("003", LogFixture.SCHEMA, List.of(LogFixture.trip("k1", "p1", 1, 100), LogFixture.trip("k9", "p0", 1, 101),
        LogFixture.trip("k10", "p1", 99, 102))));
    Map<String, String> expected;
    try (MergedLogRecords m = scan(Optional.empty())) {
      expected = entries(m);
    }
    try (MergedLogRecords m = scan(Optional.of(budget))) {
      assertTrue(m instanceof SpillingLogRecords);
      long spilled = ((SpillingLogRecords) m).spilled();
      assertTrue(budget == 0 ? spilled == m.size() : spilled > 0 && spilled < m.size(), "spilled " + spilled + " of " + m.size());
      assertEquals(expected, entries(m));
      assertEquals(expected.size(), m.size());
      // a reader takes the keys a base file holds; the rest are the log-only keys
      assertTrue(m.remove("k3").isPresent());
      assertTrue(m.remove("k39").isPresent());
      assertTrue(m.remove("k39").isEmpty());
      assertEquals(expected.size() - 2, entries(m).size());
      assertEquals(expected.get("k10"), entries(m).get("k10"));
      try (Stream<Path> files = Files.list(spill)) {
        assertTrue(files.findAny().isPresent(), "a spill file while open");
      }
    }
    try (Stream<Path> files = Files.list(spill)) {
      assertTrue(files.findAny().isEmpty(), "the spill file is deleted on close");
    }
  }

  @Test
  void withoutASpillDirectoryRecordsStayInMemory() throws IOException {
    session(DataBlock.of("001", LogFixture.SCHEMA, List.of(LogFixture.trip("k", "p1", 1, 1))));
    try (MergedLogRecords m = scan(Optional.empty())) {
      assertTrue(m instanceof InMemoryLogRecords);
      assertEquals(1, m.size());
    }
  }
}
