package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.MergeMode;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Hudi 0.15's Java client upserts into a small Merge-on-Read table (one file group per partition, log updates in
 * both) and then both engines read it.
 *
 * <p>Where Hudi appends (no small-file routing: {@code hoodie.parquet.small.file.limit=0}, or a batch without
 * inserts) every earlier log update survives, next to Sluice's log files. Where the batch has inserts for a partition
 * and the limit is Hudi's default, Hudi's Java client (unlike its Spark writer, and unlike Sluice) treats every small
 * base file of that partition as an insert target even when its slice has log files, and rewrites it from the base
 * file alone: the log updates of keys the batch does not touch are dropped. That is Hudi's own behaviour, the same on
 * a table Hudi wrote throughout; the test pins it (docs/merge-on-read.md, "Hudi's Java client and small files").
 */
class HudiUpsertsIntoMergeOnReadTest {
  private static final String[] PARTS = {"north", "south"};
  private static final Map<String, String> HUDI_DEFAULT_LIMIT = Map.of("hoodie.metadata.enable", "false",
      "hoodie.index.bloom.num_entries", "1000");
  private static final Map<String, String> HUDI_NO_SMALL_FILES = Map.of("hoodie.metadata.enable", "false",
      "hoodie.index.bloom.num_entries", "1000", "hoodie.parquet.small.file.limit", "0");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  /** Who wrote the table before Hudi's upsert under test. */
  enum Writer { SLUICE, HUDI }

  /** The table after insert k0..k7 and two log-only upserts (k0, k1 then k2, k3), with its model. */
  private record Seeded(Path location, Table table, ExpectedTable model, List<GenericRecord> rows,
      String insertInstant, List<GenericRecord> logUpdates, List<String> logInstants) {
  }

  /**
   * The repair test's data shape: 8 keys over two partitions (one file group each), then two upserts whose updates
   * go to log files. Sluice writes with small-file routing off; Hudi writes its log updates with it off too (with
   * its default limit the Java client would rewrite the small base file instead of appending).
   */
  private Seeded seed(Writer writer) {
    Path location = dir.resolve(writer.name().toLowerCase());
    Table table;
    ExpectedTable.Write insert;
    ExpectedTable.Write upsert;
    if (writer == Writer.SLUICE) {
      TableSpec spec = TableSpec.builder("t").type(TableType.MERGE_ON_READ).precombine("ts").schema(WideRows.SCHEMA)
          .mergeMode(MergeMode.EVENT_TIME_ORDERING).recordKey("id").partitionBy("part").tableVersion(6).build();
      table = WideRows.create(location, spec, Map.of("hoodie.parquet.small.file.limit", "0",
          "hoodie.metadata.enable", "false"));
      insert = rs -> table.insert(rs.iterator()).instantTime();
      upsert = rs -> table.upsert(rs.iterator()).instantTime();
    } else {
      oracle.create(location, OracleTableSpec.builder("t", WideRows.SCHEMA).mergeOnRead().precombine("ts")
          .recordKey("id").partitionBy("part").payload(MergeMode.EVENT_TIME_ORDERING.payloadClass()).build());
      insert = rs -> oracle.write(location, "insert", WideRows.SCHEMA, rs, HUDI_NO_SMALL_FILES);
      upsert = rs -> oracle.write(location, "upsert", WideRows.SCHEMA, rs, HUDI_NO_SMALL_FILES);
      table = null;
    }
    ExpectedTable model = KeyLayout.PARTITIONED.model(true);
    List<GenericRecord> rows = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      rows.add(WideRows.row("k" + i, 1, PARTS[i % 2], i + 1));
    }
    String inserted = model.upsert(rows, insert);
    List<GenericRecord> first = List.of(WideRows.update(rows.get(0), 2, 20), WideRows.update(rows.get(1), 2, 21));
    List<GenericRecord> second = List.of(WideRows.update(rows.get(2), 3, 30), WideRows.update(rows.get(3), 3, 31));
    List<String> logInstants = List.of(model.upsert(first, upsert), model.upsert(second, upsert));
    List<GenericRecord> logUpdates = new ArrayList<>(first);
    logUpdates.addAll(second);
    Table opened = table != null ? table : WideRows.open(location, WideRows.NO_METADATA_TABLE);
    for (String part : PARTS) {
      assertEquals(1, fileIds(location.resolve(part)).size(), part + ": one file group");
      assertEquals(2, logFiles(location.resolve(part)).size(), part + ": the two upserts' log files "
          + logFiles(location.resolve(part)));
    }
    model.assertBothHold(oracle, location, opened, writer + " before Hudi's upsert");
    return new Seeded(location, opened, model, rows, inserted, logUpdates, logInstants);
  }

  /** How Hudi's upsert is routed. */
  enum Routing {
    /** Small-file routing off: updates appended to the slices' logs, inserts into new file groups. */
    NO_SMALL_FILES(HUDI_NO_SMALL_FILES, true),
    /** Hudi's default limit, a batch of updates only: no partition has inserts, so no small file is picked. */
    DEFAULT_LIMIT_UPDATES_ONLY(HUDI_DEFAULT_LIMIT, false);

    final Map<String, String> conf;
    final boolean inserts;

    Routing(Map<String, String> conf, boolean inserts) {
      this.conf = conf;
      this.inserts = inserts;
    }
  }

  @ParameterizedTest
  @EnumSource(Routing.class)
  void hudiAppendsNextToSluicesLogFilesAndBothReadEveryUpdate(Routing routing) {
    Seeded s = seed(Writer.SLUICE);
    List<String> sluiceLogs = logFiles(s.location().resolve(PARTS[0]));
    // k0 and k1 again (Sluice's first log update touched them), k4 and k5 untouched so far
    List<GenericRecord> batch = new ArrayList<>(List.of(WideRows.update(s.rows().get(0), 4, 40),
        WideRows.update(s.rows().get(1), 4, 41), WideRows.update(s.rows().get(4), 4, 44),
        WideRows.update(s.rows().get(5), 4, 45)));
    if (routing.inserts) {
      batch.add(WideRows.row("h1", 4, PARTS[0], 46));
      batch.add(WideRows.row("h2", 4, PARTS[1], 47));
    }
    String hudi = s.model().upsert(batch, rs -> oracle.write(s.location(), "upsert", WideRows.SCHEMA, rs, routing.conf));
    List<String> after = logFiles(s.location().resolve(PARTS[0]));
    assertTrue(after.containsAll(sluiceLogs), "Sluice's log files stay: " + after);
    assertEquals(sluiceLogs.size() + 1, after.size(), "Hudi appended in a log file of its own: " + after);
    String hudiLog = after.stream().filter(f -> !sluiceLogs.contains(f)).findFirst().orElseThrow();
    assertTrue(logVersion(hudiLog) > sluiceLogs.stream().mapToInt(HudiUpsertsIntoMergeOnReadTest::logVersion).max()
        .orElseThrow(), "Hudi's log version " + hudiLog + " is above Sluice's " + sluiceLogs);
    s.model().assertBothHold(oracle, s.location(), s.table(), "after Hudi's upsert " + hudi + " (" + routing + ")");
  }

  /**
   * Hudi's default small-file limit and a batch with an insert for north: Hudi rewrites north's small base file with
   * the batch's rows and drops the slice's log files from the latest slice, so k2's log update (a key the batch does
   * not touch) is gone for both readers; south, which gets no insert, is appended to and keeps k3's. The same
   * whichever engine wrote the table before.
   */
  @ParameterizedTest
  @EnumSource(Writer.class)
  void hudisSmallFileRoutingDropsLogUpdatesOfTheFileGroupItRewrites(Writer writer) {
    Seeded s = seed(writer);
    ExpectedTable kept = KeyLayout.PARTITIONED.model(true);
    kept.upsert(s.rows(), rs -> s.insertInstant());
    for (int i = 0; i < s.logUpdates().size(); i++) {
      GenericRecord u = s.logUpdates().get(i);
      if (u.get("part").toString().equals(PARTS[1])) {
        String instant = s.logInstants().get(i / 2);
        kept.upsert(List.of(u), rs -> instant);
      }
    }
    List<GenericRecord> batch = List.of(WideRows.update(s.rows().get(0), 4, 40), WideRows.update(s.rows().get(1), 4, 41),
        WideRows.update(s.rows().get(4), 4, 44), WideRows.row("h1", 4, PARTS[0], 46));
    String hudi = s.model().upsert(batch, rs -> oracle.write(s.location(), "upsert", WideRows.SCHEMA, rs,
        HUDI_DEFAULT_LIMIT));
    kept.upsert(batch, rs -> hudi);

    Path north = s.location().resolve(PARTS[0]);
    assertEquals(1, fileIds(north).size(), "north: still one file group (h1 went into it)");
    assertTrue(Files.exists(north.resolve(baseFileOf(north, hudi))), "north's base file rewritten at " + hudi);
    List<GenericRecord> hudiRows = oracle.read(s.location(), "snapshot", Optional.empty());
    List<GenericRecord> sluiceRows = Rows.scan(s.table(), Optional.empty());
    kept.assertHeldByMerged(hudiRows, "Hudi, " + writer + "'s table after Hudi's upsert");
    kept.assertHeldByMerged(sluiceRows, "Sluice, " + writer + "'s table after Hudi's upsert");
    Rows.assertSameRows(hudiRows, sluiceRows, "Hudi vs Sluice");
    // the model of every committed write differs exactly in k2, the north key only a log update had changed
    List<String> lost = new ArrayList<>();
    List<ExpectedTable.Entry> want = s.model().entries();
    List<ExpectedTable.Entry> got = kept.entries();
    for (int i = 0; i < want.size(); i++) {
      if (!want.get(i).data().equals(got.get(i).data())) {
        lost.add(want.get(i).recordKey());
      }
    }
    System.out.println("HudiUpsertsIntoMergeOnReadTest " + writer + ": Hudi 0.15's Java client dropped the log updates"
        + " of " + lost);
    assertEquals(List.of("k2"), lost);
    assertEquals(2, logFiles(north).size(), "the dropped log files stay on disk, in the superseded slice: "
        + logFiles(north));
  }



  private static List<String> names(Path partition) {
    try (Stream<Path> s = Files.list(partition)) {
      // Hadoop's local file system (Hudi's writer) leaves .crc checksum files next to what it writes
      return s.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> logFiles(Path partition) {
    return names(partition).stream().filter(n -> n.contains(".log.")).toList();
  }

  private static List<String> fileIds(Path partition) {
    Map<String, Boolean> ids = new HashMap<>();
    for (String n : names(partition)) {
      if (n.endsWith(".parquet")) {
        ids.put(n.substring(0, n.indexOf('_')), true);
      } else if (n.contains(".log.")) {
        ids.put(n.substring(1, n.lastIndexOf('_', n.indexOf(".log."))), true);
      }
    }
    return ids.keySet().stream().sorted().toList();
  }

  private static String baseFileOf(Path partition, String instant) {
    return names(partition).stream().filter(n -> n.endsWith("_" + instant + ".parquet")).findFirst()
        .orElseThrow(() -> new AssertionError("no base file of " + instant + " in " + names(partition)));
  }

  /** The version in {@code .<fileId>_<baseInstant>.log.<version>_<token>}. */
  private static int logVersion(String logFile) {
    String tail = logFile.substring(logFile.indexOf(".log.") + 5);
    return Integer.parseInt(tail.substring(0, tail.indexOf('_')));
  }
}
