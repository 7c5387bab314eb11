package dev.sluice.interop;

import dev.sluice.internal.service.TableInternals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
import dev.sluice.api.MergeMode;
import dev.sluice.storage.LocalStorage;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes that never completed, left by a crashed writer of one engine, and the other engine's next write: Hudi's
 * Java client rolls back a crashed Sluice write from Sluice's markers; Sluice writes past a pending Hudi write
 * without seeing its files.
 */
class FailedWritesInteropTest {

  private static final Map<String, String> NO_METADATA = Map.of("hoodie.metadata.enable", "false",
      "hoodie.index.bloom.num_entries", "1000");
  private static final Map<String, String> SMALL_BLOOM = Map.of("hoodie.index.bloom.num_entries", "1000",
      "hoodie.metadata.enable", "false");
  private static final String[] PARTS = {"north", "south"};

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  @Test
  void hudiRollsBackACrashedSluiceWrite() {
    Path location = dir.resolve("crashed_sluice");
    Table table = WideRows.create(location, KeyLayout.PARTITIONED.spec("crashed", MergeMode.EVENT_TIME_ORDERING),
        WideRows.NO_METADATA_TABLE);
    ExpectedTable model = KeyLayout.PARTITIONED.model(true);
    List<GenericRecord> rows = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      rows.add(WideRows.row("k" + i, 1, PARTS[i % 2], i + 1));
    }
    String first = model.upsert(rows, rs -> table.insert(rs.iterator()).instantTime());

    // The writer dies when it publishes the completed commit file: data files, markers and inflight stay.
    CrashingStorage crashing = new CrashingStorage(new LocalStorage(),
        p -> p.endsWith(".commit") && !p.contains("/.temp/"));
    Table dying = Tables.open(crashing.storage(), location.toString(), Config.of(SMALL_BLOOM));
    assertThrows(RuntimeException.class, () -> dying.upsert(List.of(WideRows.update(rows.get(0), 2, 50),
        WideRows.row("lost", 2, PARTS[1], 51)).iterator()));
    assertTrue(crashing.crashed());
    String crashed = pendingInstant(location);
    List<Path> crashedFiles = dataFilesOf(location, crashed);
    assertFalse(crashedFiles.isEmpty(), "the crashed write left its base files");
    assertTrue(Files.isDirectory(location.resolve(".hoodie/.temp/" + crashed)), "and its markers");
    Rows.assertSameData(Rows.scan(table, Optional.empty()), Rows.scan(table, Optional.of(first)),
        "Sluice ignores the pending write");

    // Hudi's next write rolls the failed one back first (EAGER failed-writes cleaning), using Sluice's markers.
    model.upsert(List.of(WideRows.update(rows.get(1), 3, 60), WideRows.row("h1", 3, PARTS[0], 61)),
        rs -> oracle.write(location, "upsert", WideRows.SCHEMA, rs, NO_METADATA));
    for (Path f : crashedFiles) {
      assertFalse(Files.exists(f), "Hudi's rollback deleted " + f);
    }
    assertFalse(Files.exists(location.resolve(".hoodie/" + crashed + ".inflight")), "the failed instant is gone");
    model.upsert(List.of(WideRows.update(rows.get(0), 4, 70)), rs -> table.upsert(rs.iterator()).instantTime());

    OracleBatch batch = oracle.batch();
    var hudiTimeline = batch.timeline(location);
    var hudiRows = batch.read(location, "snapshot", Optional.empty(), false);
    batch.run();
    assertTrue(hudiTimeline.get().stream().anyMatch(i -> "rollback".equals(i.get("action"))
        && "COMPLETED".equals(i.get("state"))), "Hudi recorded a rollback: " + hudiTimeline.get());
    List<String> sluiceInstants = TableInternals.timeline(table).instants().stream().map(i -> i.time() + " " + i.action().id())
        .collect(Collectors.toList());
    assertEquals(hudiTimeline.get().stream().map(i -> i.get("time") + " " + i.get("action")).collect(Collectors.toList()),
        sluiceInstants, "Sluice's timeline with Hudi's rollback");
    model.assertHeldBy(hudiRows.get(), "Hudi after its rollback and Sluice's next write");
    model.assertHeldBy(Rows.scan(table, Optional.empty()), "Sluice after Hudi's rollback");
  }

  /*
   * Sluice's write rolls the pending Hudi write back first (EAGER failed-writes policy), so Hudi's next writer finds
   * nothing to roll back; ReliabilityInteropTest.sluiceRollsBackAWriteHudiLeftPendingAndHudiWritesOn covers that.
   */
  @Test
  void sluiceWritesPastAPendingHudiWriteWithoutSeeingIt() throws IOException {
    Path location = dir.resolve("crashed_hudi");
    oracle.create(location, KeyLayout.PARTITIONED.oracleSpec("crashed_hudi"));
    ExpectedTable model = KeyLayout.PARTITIONED.model(false);
    List<GenericRecord> rows = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      rows.add(WideRows.row("k" + i, 1, PARTS[i % 2], i + 1));
    }
    model.upsert(rows, rs -> oracle.write(location, "insert", WideRows.SCHEMA, rs, NO_METADATA));
    // A Hudi write whose commit file never appeared (the writer died after writing its files).
    String lost = oracle.write(location, "upsert", WideRows.SCHEMA,
        List.of(WideRows.update(rows.get(0), 2, 40), WideRows.row("lost", 2, PARTS[1], 41)), NO_METADATA);
    Files.delete(location.resolve(".hoodie/" + lost + ".commit"));
    Files.deleteIfExists(location.resolve(".hoodie/." + lost + ".commit.crc"));
    assertFalse(dataFilesOf(location, lost).isEmpty());

    Table table = WideRows.open(location, WideRows.NO_METADATA_TABLE);
    model.assertHeldBy(Rows.scan(table, Optional.empty()), "Sluice ignores the pending Hudi write");
    // Sluice's index must not find keys in the pending write's files: k0 is updated in its committed file group.
    model.upsert(List.of(WideRows.update(rows.get(0), 3, 50), WideRows.row("s1", 3, PARTS[0], 51)),
        rs -> table.upsert(rs.iterator()).instantTime());
    List<GenericRecord> hudi = oracle.read(location, "snapshot", Optional.empty());
    model.assertHeldBy(hudi, "Hudi after Sluice's write");
    model.assertHeldBy(Rows.scan(table, Optional.empty()), "Sluice after its write");
    InteropChecks.assertRowsInLatestFiles(hudi, table);
  }

  /** The one instant of the table's timeline that has an inflight file but no completed one. */
  private static String pendingInstant(Path location) {
    try (Stream<Path> files = Files.list(location.resolve(".hoodie"))) {
      List<String> names = files.map(p -> p.getFileName().toString()).collect(Collectors.toList());
      List<String> pending = names.stream().filter(n -> n.endsWith(".inflight"))
          .map(n -> n.substring(0, n.indexOf('.'))).filter(t -> !names.contains(t + ".commit"))
          .collect(Collectors.toList());
      assertEquals(1, pending.size(), "pending instants in " + names);
      return pending.get(0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The base files written by {@code instant}. */
  private static List<Path> dataFilesOf(Path location, String instant) {
    try (Stream<Path> files = Files.walk(location)) {
      return files.filter(p -> !p.toString().contains("/.hoodie/"))
          .filter(p -> p.getFileName().toString().endsWith("_" + instant + ".parquet")).collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
