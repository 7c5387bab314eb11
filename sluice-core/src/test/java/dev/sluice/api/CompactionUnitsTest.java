package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A compaction whose slices a cluster engine compacts ({@link TableCompaction#runWith}, {@link CompactionUnits}) and
 * whose tasks fail or answer wrongly: the table keeps its rows, no file of the failed run joins it, and the plan
 * still runs afterwards. (Spark's runs are in sluice-spark's SparkCompactionTest.)
 */
class CompactionUnitsTest {
  @TempDir
  Path dir;

  private Table table(int version) {
    Table t = TripFixture.create(dir.resolve("t"), TripFixture.spec().type(TableType.MERGE_ON_READ)
        .tableVersion(version).build(), new HashMap<>(Map.of("hoodie.parquet.small.file.limit", "0")));
    t.insert(TripFixture.trips(0, 10, 2, 1).iterator());
    t.upsert(TripFixture.trips(0, 4, 2, 2).iterator());
    return t;
  }

  @ParameterizedTest
  @CsvSource({"6", "9"})
  void aFailedTaskLeavesNoFileAndThePlanRunsAgain(int version) {
    Table t = table(version);
    Map<String, GenericRecord> before = TripFixture.rows(t);
    String instant = t.compaction().scheduleNow().orElseThrow();
    int operations = t.compaction().plan(instant).operations().size();
    IllegalStateException lost = assertThrows(IllegalStateException.class, () -> t.compaction().runWith(instant,
        slices -> {
          CompactionUnits.compact(slices.get(0), new WriteToken(0, 1, 7)).orElseThrow();
          throw new IllegalStateException("executor lost");
        }));
    assertEquals("executor lost", lost.getMessage());
    assertEquals(1, compacted(instant).size(), "the failed attempt's file, not yet committed");
    assertEquals(before, TripFixture.rows(Tables.open(dir.resolve("t").toString())));
    assertEquals(List.of(instant), t.compaction().pending());

    CompactionInfo info = t.compaction().run(instant);
    assertEquals(operations, info.baseFilesWritten());
    List<String> files = compacted(instant);
    assertEquals(operations, files.size());
    assertTrue(files.stream().noneMatch(f -> f.contains("_0-1-7_")), files.toString());
    assertEquals(before, TripFixture.rows(Tables.open(dir.resolve("t").toString())));
  }

  @ParameterizedTest
  @CsvSource({"6", "9"})
  void aResultForTheWrongSliceIsRefused(int version) {
    Table t = table(version);
    String instant = t.compaction().scheduleNow().orElseThrow();
    SluiceException e = assertThrows(SluiceException.class, () -> t.compaction().runWith(instant, slices ->
        List.of(CompactionUnits.compact(slices.get(0), new WriteToken(0, 1, 3)).orElseThrow(),
            CompactionUnits.compact(slices.get(0), new WriteToken(0, 1, 4)).orElseThrow())));
    assertTrue(e.getMessage().contains("two results for operation 0"), e.getMessage());
    assertEquals(List.of(instant), t.compaction().pending());
    assertEquals(t.compaction().plan(instant).operations().size(), t.compaction().run(instant).baseFilesWritten());
  }

  /** The base files compaction {@code instant} wrote. */
  private List<String> compacted(String instant) {
    try (Stream<Path> walk = Files.walk(dir.resolve("t"))) {
      return walk.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("_" + instant + ".parquet")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
