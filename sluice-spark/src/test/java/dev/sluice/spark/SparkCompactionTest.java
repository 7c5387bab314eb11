package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.CompactedSlice;
import dev.sluice.api.CompactionInfo;
import dev.sluice.api.CompactionSlice;
import dev.sluice.api.CompactionUnits;
import dev.sluice.api.Config;
import dev.sluice.api.QueryType;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.api.WriteStatInfo;
import dev.sluice.api.WriteToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compaction on Spark ({@code local[2]}) against the engine's single-machine compaction of a copy of the same table
 * with the same plan (scheduled by the engine before the copy): the same rows before and after (snapshot and
 * read-optimized), the same file groups and counts in the commit metadata, as many base files. Merge-on-Read,
 * partitioned, versions 6 and 9, log files in several slices.
 */
class SparkCompactionTest {
  private static final Map<String, String> SIZES = Map.of(
      "hoodie.parquet.max.file.size", String.valueOf(40 << 10),
      "hoodie.parquet.small.file.limit", String.valueOf(30 << 10));
  private static final Schema SCHEMA = SchemaBuilder.record("trips").fields()
      .requiredString("id").requiredString("part").requiredLong("ts").requiredString("payload").endRecord();
  private static SparkSession spark;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.builder("sluice-spark-compaction-test").getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  @ParameterizedTest
  @ValueSource(ints = {6, 9})
  void compactsWhatTheEngineCompacts(int version) {
    Path path = dir.resolve("spark");
    Table table = table(path, version);
    String planned = table.compaction().scheduleNow().orElseThrow();
    int operations = table.compaction().plan(planned).operations().size();
    assertTrue(operations >= 4, "slices with logs: " + operations);
    Path twinPath = dir.resolve("twin");
    SluiceSparkTest.copyTree(path, twinPath);
    Map<String, String> before = contents(table, QueryType.SNAPSHOT);
    assertEquals(600 - 40, before.size());

    SparkCompactionResult done = SluiceSpark.compact(spark, path.toString(), SIZES);
    CompactionInfo onSpark = done.compaction().orElseThrow();
    assertEquals(planned, onSpark.instantTime(), "the pending plan is the one run");
    CompactionInfo engine = Tables.open(twinPath.toString(), Config.of(SIZES)).compaction().run(planned);

    assertEquals(shape(engine), shape(onSpark));
    assertEquals(operations, onSpark.baseFilesWritten());
    assertEquals(engine.recordsWritten(), onSpark.recordsWritten());
    assertEquals(engine.logFilesCompacted(), onSpark.logFilesCompacted());
    Table after = Tables.open(path.toString());
    assertEquals(before, contents(after, QueryType.SNAPSHOT));
    assertEquals(before, contents(after, QueryType.READ_OPTIMIZED));
    assertEquals(files(twinPath, ".parquet"), files(path, ".parquet"), "no stray base file");
    // one Spark task per slice: each new base file names its own task attempt (partition-stage-attempt)
    List<String> tokens = tokens(path, planned);
    assertEquals(operations, tokens.size());
    assertEquals(operations, tokens.stream().map(t -> t.substring(t.lastIndexOf('-') + 1)).distinct().count(),
        "distinct task attempts: " + tokens);
    assertEquals(List.of(), after.compaction().pending());
    assertEquals(Tables.open(twinPath.toString()).inspect().timeline().size(), after.inspect().timeline().size());

    // nothing pending, and no delta commit since: nothing is scheduled, and the result says why
    int instants = after.inspect().timeline().size();
    SparkCompactionResult nothing = SluiceSpark.compact(spark, path.toString(), SIZES);
    assertTrue(nothing.compaction().isEmpty());
    assertFalse(nothing.explanation().isBlank());
    assertEquals(instants, Tables.open(path.toString()).inspect().timeline().size());
  }

  @Test
  void schedulesWhenForcedAndRunsOneTaskPerSlice() {
    Path path = dir.resolve("forced");
    Table table = table(path, 6);
    Map<String, String> before = contents(table, QueryType.SNAPSHOT);
    // two delta commits since the table began: the trigger (5) has not fired, so only force schedules
    Map<String, String> options = new java.util.HashMap<>(SIZES);
    options.put("sluice.spark.compact.force", "true");
    SparkCompactionResult done = SluiceSpark.compact(spark, path.toString(), options);
    CompactionInfo info = done.compaction().orElseThrow();
    assertTrue(info.baseFilesWritten() >= 4);
    assertEquals(before, contents(Tables.open(path.toString()), QueryType.READ_OPTIMIZED));
  }

  @Test
  void aDuplicatedAttemptLeavesOneBaseFile() {
    Path path = dir.resolve("dup");
    Table table = table(path, 6);
    Map<String, String> before = contents(table, QueryType.SNAPSHOT);
    String planned = table.compaction().scheduleNow().orElseThrow();
    List<String> fileIds = new ArrayList<>();
    CompactionInfo info = table.compaction().runWith(planned, slices -> {
      List<CompactedSlice> kept = new ArrayList<>();
      for (CompactionSlice s : slices) {
        if (s.index() == 0) {
          fileIds.add(s.partitionPath() + "/" + s.fileId());
          // a first attempt that the engine gives up on (a lost executor, a slow speculative copy)
          CompactionUnits.compact(s, new WriteToken(0, 1, 100)).orElseThrow();
        }
        kept.add(CompactionUnits.compact(s, new WriteToken(s.index(), 1, 200 + s.index())).orElseThrow());
      }
      return kept;
    });
    String group = fileIds.get(0);
    Path partition = path.resolve(group.substring(0, group.indexOf('/')));
    String fileId = group.substring(group.indexOf('/') + 1);
    List<String> compacted = new ArrayList<>();
    try (Stream<Path> list = Files.list(partition)) {
      list.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith(fileId) && n.endsWith("_" + planned + ".parquet")).forEach(compacted::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertEquals(List.of(fileId + "_0-1-200_" + planned + ".parquet"), compacted);
    assertEquals(slicesOf(info), info.baseFilesWritten());
    assertEquals(before, contents(Tables.open(path.toString()), QueryType.READ_OPTIMIZED));
  }

  private static int slicesOf(CompactionInfo info) {
    return info.commit().stats().size();
  }

  /**
   * A Merge-on-Read table partitioned three ways: 600 rows in several file groups per partition, then two upserts and
   * a delete as log files on many slices.
   */
  private static Table table(Path path, int version) {
    TableSpec spec = TableSpec.builder("trips").type(TableType.MERGE_ON_READ).recordKey("id").precombine("ts")
        .partitionBy("part").schema(SCHEMA).tableVersion(version).build();
    Table t = Tables.create(path.toString(), spec, Config.of(SIZES));
    t.insert(records(0, 600, 1, "a").iterator());
    t.upsert(records(0, 600, 2, "b").stream().filter(r -> r.get("id").hashCode() % 3 == 0).toList().iterator());
    t.upsert(records(100, 300, 3, "c").stream().filter(r -> r.get("id").hashCode() % 5 == 0).toList().iterator());
    t.delete(records(500, 40, 4, "d").iterator());
    return t;
  }

  private static List<GenericRecord> records(int from, int n, long ts, String tag) {
    List<GenericRecord> out = new ArrayList<>(n);
    for (int i = from; i < from + n; i++) {
      GenericRecord g = new GenericData.Record(SCHEMA);
      g.put("id", String.format("k%06d", i));
      g.put("part", "p" + (i % 3));
      g.put("ts", ts);
      g.put("payload", tag + ":" + i + ":" + "x".repeat(40));
      out.add(g);
    }
    return out;
  }

  /** The compaction's file groups with their base instants and counts, sorted (the file names carry tokens). */
  private static List<String> shape(CompactionInfo info) {
    List<String> out = new ArrayList<>();
    for (WriteStatInfo s : info.commit().stats()) {
      out.add(s.partitionPath() + " " + s.fileId() + "@" + s.prevCommit() + " writes=" + s.numWrites() + " deletes="
          + s.numDeletes() + " updates=" + s.numUpdateWrites() + " inserts=" + s.numInserts() + " logRecords="
          + s.totalLogRecords() + " logBlocks=" + s.totalLogBlocks());
    }
    out.sort(Comparator.naturalOrder());
    assertEquals(true, info.commit().compacted());
    return out;
  }

  private static Map<String, String> contents(Table t, QueryType type) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().queryType(type).open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        assertEquals(null, out.put(r.get("id").toString(), r.get("part") + "/" + r.get("ts") + "/" + r.get("payload")),
            "key returned twice: " + r.get("id"));
      }
    }
    return out;
  }

  /** The write tokens of the base files compaction {@code instant} wrote. */
  private static List<String> tokens(Path table, String instant) {
    try (Stream<Path> walk = Files.walk(table)) {
      return walk.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith("_" + instant + ".parquet"))
          .map(n -> n.split("_")[1]).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long files(Path table, String marker) {
    try (Stream<Path> walk = Files.walk(table)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> !table.relativize(p).toString().startsWith(".hoodie"))
          .filter(p -> p.getFileName().toString().contains(marker)).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
