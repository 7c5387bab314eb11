package dev.sluice.interop;

import static dev.sluice.interop.MergeOnReadInteropTest.SCHEMA;
import static dev.sluice.interop.MergeOnReadInteropTest.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Scan;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Incremental queries and time travel on tables Hudi 1.1.1's Java client wrote at versions 9 and 8, compared row by
 * row with Spark's reads through Hudi 1.1.1's bundle ({@code hoodie.datasource.query.type=incremental} with begin and
 * end completion times, and {@code as.of.instant}), all in one Spark session. The Merge-on-Read table has a
 * compaction requested before a delta commit and completed after it (instants completing out of requested order), a
 * delete, a late update that loses on ordering value, and last a write left pending, which time travel past it must
 * refuse as Hudi does.
 */
class Hudi1IncrementalInteropTest {
  private static final Map<String, String> HUDI = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000");
  private static final String BEGIN = "hoodie.datasource.read.begin.instanttime";
  private static final String END = "hoodie.datasource.read.end.instanttime";

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locateHudi1();
  }

  /** One table Hudi wrote: where, and its instants as Hudi's timeline lists them. */
  private record Written(Path path, boolean mor, OracleBatch.Pending<List<Map<String, String>>> timeline) {
  }

  private static Written write(OracleBatch batch, Path path, boolean mor, int version) {
    OracleTableSpec.Builder spec = OracleTableSpec.builder(path.getFileName().toString(), SCHEMA).recordKey("id")
        .precombine("ts").partitionBy("part");
    batch.create(path, (mor ? spec.mergeOnRead() : spec.copyOnWrite()).build(),
        List.of("--table-version", String.valueOf(version)));
    batch.write(path, "insert", SCHEMA, List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p1", "b"),
        row("k3", 1, "p1", "c"), row("k4", 1, "p2", "d"), row("k5", 1, "p2", "e")), HUDI);
    // k2's update is late (lower ordering value): it loses to the stored row
    batch.write(path, "upsert", SCHEMA, List.of(row("k1", 5, "p1", "a5"), row("k4", 5, "p2", "d5"),
        row("k2", 0, "p1", "b0")), HUDI);
    batch.write(path, "delete", SCHEMA, List.of(row("k3", 0, "p1", null)), HUDI);
    // Merge-on-Read: the compaction is requested before this upsert and completes after it
    batch.write(path, mor ? "upsert-during-compaction" : "upsert", SCHEMA, List.of(row("k1", 8, "p1", "a8"),
        row("k5", 6, "p2", "e6"), row("k6", 6, "p2", "f")), HUDI);
    batch.write(path, "upsert", SCHEMA, List.of(row("k2", 7, "p1", "b7"), row("k6", 2, "p2", "f2"),
        row("k7", 7, "p1", "g")), HUDI);
    batch.write(path, "upsert", SCHEMA, List.of(row("k1", 99, "p1", "never")), HUDI, List.of("--uncommitted"));
    return new Written(path, mor, batch.timeline(path));
  }

  /**
   * A version-9 Merge-on-Read and a version-8 Copy-on-Write table, each read by Spark (one session for both) and by
   * Sluice: incremental ranges between completion times (and open-ended), time travel to each requested time and
   * to the pending write.
   */
  @Test
  void incrementalRangesAndTimeTravelReadAsSparkWithHudi111() {
    OracleBatch batch = oracle.batch();
    List<Written> tables = List.of(write(batch, dir.resolve("mor_v9"), true, 9),
        write(batch, dir.resolve("cow_v8"), false, 8));
    batch.run();
    List<Map<String, String>> queries = new ArrayList<>();
    List<Supplier<Scan>> sluice = new ArrayList<>();
    List<String> lastQueries = new ArrayList<>();
    for (Written w : tables) {
      plan(w, queries, sluice);
      lastQueries.add(queries.get(queries.size() - 1).toString());
    }
    List<HudiSpark.Answer> answers = HudiSpark.locate("1.1.1").reads(queries, dir);
    assertEquals(queries.size(), answers.size(), "one answer per query");
    int nonEmpty = 0;
    int refused = 0;
    for (int i = 0; i < queries.size(); i++) {
      HudiSpark.Answer hudi = answers.get(i);
      String what = queries.get(i).toString();
      if (hudi.error().isPresent()) {
        refused++;
        try (CloseableIterator<GenericRecord> it = sluice.get(i).get().open()) {
          fail("Hudi refused " + what + " (" + hudi.error().get() + ") but Sluice read it");
        } catch (SluiceException expected) {
          // both refuse
        }
        continue;
      }
      Map<String, String> expected = new TreeMap<>();
      hudi.rows().forEach(r -> expected.put(String.valueOf(r.get("_hoodie_record_key")), line(
          r.get("_hoodie_commit_time"), r.get("name"), r.get("ts"), r.get("_hoodie_partition_path"))));
      Map<String, String> actual = new TreeMap<>();
      try (CloseableIterator<GenericRecord> it = sluice.get(i).get().withMetaColumns(true).open()) {
        it.forEachRemaining(r -> actual.put(String.valueOf(r.get("_hoodie_record_key")), line(
            r.get("_hoodie_commit_time"), r.get("name"), r.get("ts"), r.get("_hoodie_partition_path"))));
      }
      assertEquals(expected, actual, "Sluice vs Spark with Hudi 1.1.1: " + what);
      nonEmpty += expected.isEmpty() ? 0 : 1;
    }
    assertTrue(nonEmpty > queries.size() / 2, "most queries return rows: " + nonEmpty + " of " + queries.size());
    assertEquals(2, refused, "Hudi refuses only the time travel to each table's pending write: " + lastQueries);
  }

  /** The queries of one table: Spark's options and Sluice's scan, in the same order. */
  private static void plan(Written w, List<Map<String, String>> queries, List<Supplier<Scan>> sluice) {
    List<String> completions = new ArrayList<>();
    List<String> requested = new ArrayList<>();
    String pending = null;
    Map<String, String> completionOf = new TreeMap<>();
    for (Map<String, String> i : w.timeline().get()) {
      if (i.get("state").equals("COMPLETED")) {
        completions.add(i.get("completionTime"));
        requested.add(i.get("time"));
        completionOf.put(i.get("time"), i.get("completionTime"));
      } else if (pending == null && !i.get("action").equals("compaction")) {
        pending = i.get("time");
      }
    }
    completions.sort(null);
    if (w.mor()) {
      List<String> byRequest = new ArrayList<>(completionOf.values());
      assertNotEquals(new TreeSet<>(byRequest).stream().toList(), byRequest,
          "an instant completed out of requested order: " + completionOf);
    }
    Table table = Tables.open(w.path().toString());
    List<String> begins = new ArrayList<>(List.of("00000000000000000"));
    begins.addAll(completions.subList(0, completions.size() - 1));
    for (String b : begins) {
      List<Optional<String>> ends = new ArrayList<>(List.of(Optional.empty()));
      completions.stream().filter(c -> c.compareTo(b) > 0).limit(2).forEach(c -> ends.add(Optional.of(c)));
      for (Optional<String> e : ends) {
        Map<String, String> q = new LinkedHashMap<>(HUDI);
        q.put("path", w.path().toString());
        q.put("hoodie.datasource.query.type", "incremental");
        q.put(BEGIN, b);
        e.ifPresent(v -> q.put(END, v));
        queries.add(q);
        sluice.add(() -> e.isPresent() ? table.newScan().incremental(b, e.get()) : table.newScan().incremental(b));
      }
    }
    // Hudi 1.1.1's Spark relation returns nothing for 'earliest' alone and fails on it with an end: Sluice takes
    // it as no lower bound, the same range as all zeros
    assertEquals(keys(table.newScan().incremental("00000000000000000")), keys(table.newScan().incremental("earliest")));
    for (String end : completions) {
      assertEquals(keys(table.newScan().incremental("00000000000000000", end)),
          keys(table.newScan().incremental("earliest", end)), "'earliest' is no lower bound, up to " + end);
    }
    List<String> asOf = new ArrayList<>(requested);
    asOf.add(pending);
    for (String t : asOf) {
      Map<String, String> q = new LinkedHashMap<>(HUDI);
      q.put("path", w.path().toString());
      q.put("hoodie.datasource.query.type", "snapshot");
      q.put("as.of.instant", t);
      queries.add(q);
      sluice.add(() -> table.newScan().asOf(t));
    }
  }

  private static Map<String, String> keys(Scan scan) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = scan.withMetaColumns(true).open()) {
      it.forEachRemaining(r -> out.put(String.valueOf(r.get("_hoodie_record_key")),
          String.valueOf(r.get("_hoodie_commit_time"))));
    }
    return out;
  }

  private static String line(Object commitTime, Object name, Object ts, Object partition) {
    return commitTime + "|" + name + "|" + ts + "|" + partition;
  }
}
