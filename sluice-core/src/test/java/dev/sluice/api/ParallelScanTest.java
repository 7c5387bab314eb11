package dev.sluice.api;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.read.ScanPlan;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.ObservedInput;
import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scans with a parallelism above 1 return the rows of the sequential scan (in another order across file groups),
 * surface a slice's failure as it is, and leave no file open and no thread running once closed.
 */
class ParallelScanTest {
  private static final Map<String, String> OPTIONS = Map.of("hoodie.parquet.small.file.limit", "0",
      "sluice.write.parallelism", "1");
  /** Rows per insert: 4 partitions x 1500, more than the batches a 3-thread scan's queue holds. */
  private static final int ROWS = 6000;

  @TempDir
  Path dir;

  @AfterEach
  void noScanThreadLeft() {
    assertEquals(List.of(), scanThreads(), "scan threads still running");
  }

  @Test
  void copyOnWriteReadsTheSameRows() {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), OPTIONS);
    t.insert(it(trips(0, ROWS, 4, 10)));
    t.insert(it(trips(ROWS, ROWS, 4, 10)));
    t.upsert(it(trips(0, 500, 4, 20)));
    assertTrue(t.newScan().plan().slices().size() >= 8, "several file groups");
    assertSameRows(t, s -> s);
    assertSameRows(t, s -> s.select("id", "amount"));
    assertSameRows(t, s -> s.filter(Expressions.lt("amount", 3000.0)));
    assertSameRows(t, s -> s.withMetaColumns(true));
  }

  @Test
  void mergeOnReadSnapshotAndReadOptimizedReadTheSameRows() {
    Table t = morTable();
    ScanPlan plan = t.newScan().plan();
    assertTrue(plan.slices().stream().anyMatch(s -> !s.logFiles().isEmpty()), "slices with logs");
    assertTrue(plan.slices().stream().anyMatch(s -> s.logFiles().isEmpty()), "slices without logs");
    assertSameRows(t, s -> s);
    assertSameRows(t, s -> s.select("name", "id"));
    assertSameRows(t, s -> s.filter(Expressions.gt("ts", 15L)));
    assertSameRows(t, s -> s.select("id").filter(Expressions.lt("amount", 1000.0)));
    assertSameRows(t, s -> s.queryType(QueryType.READ_OPTIMIZED));
    assertSameRows(t, s -> s.queryType(QueryType.READ_OPTIMIZED).filter(Expressions.lt("amount", 3000.0)));
    Set<String> ids = new HashSet<>();
    try (CloseableIterator<GenericRecord> rows = t.newScan().parallelism(3).open()) {
      rows.forEachRemaining(r -> assertTrue(ids.add(r.get("id").toString()), "one row per key"));
    }
    assertFalse(ids.contains("id-000010"), "deleted in a log");
    assertTrue(ids.contains("id-012003"), "inserted after the deletes");
  }

  @ParameterizedTest
  @ValueSource(ints = {6, 9})
  void incrementalQueriesReadTheSameRows(int version) {
    Table t = TripFixture.create(dir, MorFixture.spec().tableVersion(version).build(), OPTIONS);
    String first = t.insert(it(trips(0, ROWS, 4, 10))).instantTime();
    t.upsert(it(trips(0, 2000, 4, 20)));
    t.delete(it(List.of(trip("id-000010", 0, "p2", null, 0))));
    t.upsert(it(trips(3000, 100, 4, 30)));
    assertSameRows(t, s -> s.incremental(first));
    if (version == 6) {
      // deleted keys: version 6 only (Hudi 1.x's incremental query has none; refused on 8 and 9)
      assertSameRows(t, s -> s.incremental(first).includeDeletes(true));
    }
    assertSameRows(t, s -> s.incremental(first).filter(Expressions.gt("ts", 25L)));
  }

  @Test
  void rowsOfOneFileGroupKeepTheirOrder() {
    Table t = morTable();
    Map<String, List<String>> sequential = byFileGroup(t.newScan().withMetaColumns(true));
    Map<String, List<String>> parallel = byFileGroup(t.newScan().withMetaColumns(true).parallelism(3));
    assertTrue(sequential.size() >= 8, sequential.keySet().toString());
    assertEquals(sequential, parallel);
  }

  @Test
  void rowsComeInTheOrderOfOneThread() {
    Table t = morTable();
    List<String> sequential = rows(t.newScan().withMetaColumns(true));
    for (int threads : new int[] {2, 3, 5}) {
      assertEquals(sequential, rows(t.newScan().withMetaColumns(true).parallelism(threads)), threads + " threads");
    }
    // a limit cuts the same rows
    assertEquals(sequential.subList(0, 1500), rows(t.newScan().withMetaColumns(true).parallelism(2).limit(1500)));
  }

  @Test
  void aLimitCutsExactly() {
    Table t = morTable();
    Set<String> all = new HashSet<>(rows(t.newScan()));
    for (long n : new long[] {1, 1023, 1500, 2049}) {
      List<String> limited = rows(t.newScan().parallelism(3).limit(n));
      assertEquals(n, limited.size());
      assertEquals(n, new HashSet<>(limited).size(), "no row twice");
      assertTrue(all.containsAll(limited), "every row is a row of the table");
    }
    assertEquals(all.size(), rows(t.newScan().parallelism(3).limit(all.size() + 5L)).size());
  }

  @Test
  void aFailingSliceSurfacesOnTheConsumerAndEverythingIsClosed() {
    morTable();
    Inputs inputs = new Inputs();
    Table t = Tables.open(inputs.storage, dir.toString(), Config.of(OPTIONS));
    List<FileSlice> slices = t.newScan().plan().slices();
    String victim = slices.get(slices.size() / 2).baseFile().orElseThrow().fileName();
    inputs.failOpening = victim;
    SluiceException sequential = assertThrows(SluiceException.class, () -> rows(t.newScan()));
    SluiceException parallel = assertThrows(SluiceException.class, () -> rows(t.newScan().parallelism(3)));
    assertTrue(parallel.getMessage().contains(victim), parallel.getMessage());
    assertEquals(sequential.getMessage(), parallel.getMessage());
    assertEquals(sequential.kind(), parallel.kind());
    assertEquals(List.of(), inputs.stillOpen(), "every opened file is closed");
    assertEquals(List.of(), scanThreads());
  }

  @Test
  void closingEarlyClosesEveryOpenedFileAndStopsTheWorkers() {
    morTable();
    Inputs inputs = new Inputs();
    Table t = Tables.open(inputs.storage, dir.toString(), Config.of(OPTIONS));
    int before = inputs.opened.get();
    try (CloseableIterator<GenericRecord> rows = t.newScan().parallelism(3).open()) {
      for (int i = 0; i < 5; i++) {
        assertTrue(rows.hasNext());
        rows.next();
      }
      // no worker can have run out of slices: the queue holds fewer batches than the table has
      assertEquals(3, scanThreads().size(), "three workers");
    }
    assertTrue(inputs.opened.get() > before);
    assertEquals(List.of(), inputs.stillOpen(), "every opened file is closed");
    assertEquals(List.of(), scanThreads());
  }

  @Test
  void aScanParallelismBelowOneIsRejected() {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), OPTIONS);
    assertThrows(SluiceException.class, () -> t.newScan().parallelism(0));
    Table configured = Tables.open(dir.toString(), Config.of(Map.of("sluice.read.parallelism", "0")));
    assertThrows(SluiceException.class, () -> configured.newScan().plan());
    Table three = Tables.open(dir.toString(), Config.of(Map.of("sluice.read.parallelism", "3")));
    assertEquals(3, three.newScan().plan().parallelism());
    assertEquals(1, t.newScan().plan().parallelism(), "default: one thread");
    assertEquals(2, three.newScan().parallelism(2).plan().parallelism(), "the scan's own wins");
  }

  /**
   * Eight file groups over four partitions: the first four with log files (updates, deletes, a re-insert), the
   * other four without.
   */
  private Table morTable() {
    Table t = TripFixture.create(dir, MorFixture.spec().build(), OPTIONS);
    t.insert(it(trips(0, ROWS, 4, 10)));
    t.insert(it(trips(ROWS, ROWS, 4, 10)));
    t.upsert(it(trips(0, 2000, 4, 20)));
    List<GenericRecord> deletes = new ArrayList<>();
    for (int i = 10; i < 60; i++) {
      deletes.add(trip(String.format("id-%06d", i), 0, "p" + (i % 4), null, 0));
    }
    t.delete(it(deletes));
    t.upsert(it(List.of(trip("id-000011", 30, "p3", "back", 0), trip("id-000100", 5, "p0", "late", 0))));
    t.insert(it(trips(2 * ROWS, 4, 4, 30)));
    return t;
  }

  /** The parallel scan returns the same multiset of rows as the sequential one. */
  private static void assertSameRows(Table t, Function<Scan, Scan> query) {
    List<String> sequential = rows(query.apply(t.newScan()));
    List<String> parallel = rows(query.apply(t.newScan()).parallelism(3));
    assertFalse(sequential.isEmpty());
    assertEquals(sorted(sequential), sorted(parallel));
  }

  private static List<String> rows(Scan scan) {
    List<String> out = new ArrayList<>();
    try (CloseableIterator<GenericRecord> rows = scan.open()) {
      rows.forEachRemaining(r -> out.add(r.toString()));
    }
    return out;
  }

  private static List<String> sorted(List<String> rows) {
    List<String> out = new ArrayList<>(rows);
    out.sort(null);
    return out;
  }

  /** Record keys in scan order, per file group (partition and the file id in {@code _hoodie_file_name}). */
  private static Map<String, List<String>> byFileGroup(Scan scan) {
    Map<String, List<String>> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> rows = scan.open()) {
      while (rows.hasNext()) {
        GenericRecord r = rows.next();
        String file = r.get("_hoodie_file_name").toString();
        // a base file's name starts with its file id; rows of log records carry the file id itself
        String name = file.startsWith(".") ? file.substring(1) : file;
        String fileId = name.indexOf('_') < 0 ? name : name.substring(0, name.indexOf('_'));
        String group = r.get("_hoodie_partition_path") + "/" + fileId;
        out.computeIfAbsent(group, g -> new ArrayList<>()).add(r.get("_hoodie_record_key").toString());
      }
    }
    return out;
  }

  private static List<String> scanThreads() {
    List<String> names = new ArrayList<>();
    for (Thread th : Thread.getAllStackTraces().keySet()) {
      if (th.getName().startsWith("sluice-scan-") && th.isAlive()) {
        names.add(th.getName());
      }
    }
    return names;
  }

  /**
   * Local storage counting the inputs it opens and keeping each one until it is closed, failing to open one file if
   * asked. Each input is tracked by itself, not by counting close calls: a reader may close an input twice (closing
   * is idempotent), which a count of closes would take for another file closed.
   */
  private static final class Inputs implements InterceptedStorage.Interceptor {
    final AtomicInteger opened = new AtomicInteger();
    /** The inputs opened and not closed yet, each with its path. */
    final Map<Object, String> open = new java.util.concurrent.ConcurrentHashMap<>();
    final Storage storage = new InterceptedStorage(new LocalStorage(), this);
    volatile String failOpening = "\u0000";

    @Override
    public void before(InterceptedStorage.Call call) throws IOException {
      if (call.op() == InterceptedStorage.Op.OPEN && call.path().endsWith(failOpening)) {
        throw new IOException("injected failure of " + call);
      }
    }

    @Override
    public SeekableInput opened(InterceptedStorage.Call call, SeekableInput in) {
      opened.incrementAndGet();
      Object input = new Object();
      open.put(input, call.path());
      return ObservedInput.closing(in, () -> open.remove(input));
    }

    /** The paths of the inputs still open. */
    List<String> stillOpen() {
      return open.values().stream().sorted().toList();
    }
  }
}
