package dev.sluice.api;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A scan split by file slice ({@link Scan#slices()}, {@link Scan#onlySlice}), as a distributed reader runs it: the
 * union of the slices read one at a time, from a table opened anew, is the whole scan's rows, for snapshot,
 * read-optimized and incremental queries with projection and filters; a slice whose files changed after planning is
 * refused as a conflict.
 */
class ScanSlicesTest {
  private static final Map<String, String> OPTIONS = Map.of("hoodie.parquet.small.file.limit", "0",
      "sluice.write.parallelism", "1");

  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(ints = {6, 9})
  void slicesReadOneByOneMakeTheWholeScan(int version) {
    Table t = TripFixture.create(dir, MorFixture.spec().tableVersion(version).build(), OPTIONS);
    String first = t.insert(it(trips(0, 400, 4, 10))).instantTime();
    t.upsert(it(trips(0, 150, 4, 20)));
    t.delete(it(List.of(trip("id-000010", 0, "p2", null, 0))));
    assertTrue(t.newScan().slices().stream().anyMatch(s -> !s.logFiles().isEmpty()), "slices with logs");
    assertSplitReadsTheSame(t, s -> s);
    assertSplitReadsTheSame(t, s -> s.select("name", "id").withMetaColumns(true));
    assertSplitReadsTheSame(t, s -> s.filter(Expressions.gt("ts", 15L)));
    assertSplitReadsTheSame(t, s -> s.queryType(QueryType.READ_OPTIMIZED));
    assertSplitReadsTheSame(t, s -> s.incremental(first));
    assertSplitReadsTheSame(t, s -> s.filter(Expressions.eq("part", "p1")));
    assertEquals(1, t.newScan().filter(Expressions.eq("part", "p1")).slices().stream()
        .map(FileSliceInfo::partitionPath).distinct().count(), "partition pruning in the planned slices");
    // an incremental query with deleted keys compares two states over all its slices: it does not split (version 6);
    // on 8 and 9 it is refused at planning (Hudi 1.x's incremental query has no deleted keys)
    Scan withDeletes = t.newScan().incremental(first).includeDeletes(true);
    SluiceException e = assertThrows(SluiceException.class,
        () -> withDeletes.onlySlice(withDeletes.slices().get(0)).open());
    assertEquals(SluiceException.Kind.UNSUPPORTED, e.kind());
  }

  @Test
  void aSliceThatChangedAfterPlanningIsAConflict() {
    Table t = TripFixture.create(dir, MorFixture.spec().build(), OPTIONS);
    t.insert(it(trips(0, 40, 1, 10)));
    FileSliceInfo planned = t.newScan().slices().get(0);
    t.upsert(it(trips(0, 5, 1, 20)));
    Table reopened = Tables.open(dir.toString());
    SluiceException e = assertThrows(SluiceException.class,
        () -> TripFixture.rows(reopened.newScan().onlySlice(planned).open()));
    assertEquals(SluiceException.Kind.CONFLICT, e.kind());
    assertTrue(e.getMessage().contains(planned.fileId()) && e.getMessage().contains("1 log file"), e.getMessage());
  }

  private void assertSplitReadsTheSame(Table t, Function<Scan, Scan> query) {
    Map<String, GenericRecord> whole = TripFixture.rows(query.apply(t.newScan()).open());
    Map<String, GenericRecord> split = new TreeMap<>();
    List<FileSliceInfo> slices = query.apply(t.newScan()).slices();
    Table opened = Tables.open(dir.toString(), Config.of(OPTIONS));
    for (FileSliceInfo s : slices) {
      TripFixture.rows(query.apply(opened.newScan()).onlySlice(s).open()).forEach((k, v) ->
          assertEquals(null, split.put(k, v), "key " + k + " in two slices"));
    }
    assertTrue(!whole.isEmpty());
    assertEquals(whole.toString(), split.toString());
  }
}
