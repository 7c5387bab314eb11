package dev.sluice.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice's sync against Hudi 0.15.0's own ({@code HiveSyncTool}, hms mode, run from {@code hudi-hive-sync-oracle}'s
 * classpath in a child JVM) on a copy of the same table, into two databases of one real metastore: the table type,
 * formats, serde, columns, partition keys, partitions (values and locations relative to each copy) and the key table
 * and serde properties must be the same.
 */
class HudiSyncComparisonTest {
  static MetastoreServer server;

  @TempDir
  Path dir;

  @BeforeAll
  static void startMetastore() throws IOException, InterruptedException {
    server = MetastoreServer.shared();
    // the helpers shared with HiveSyncTest talk to the same metastore
    HiveSyncTest.server = server;
  }

  /** Runs Hudi's HiveSyncTool on {@code base} into {@code db}. */
  static void hudiSync(Path base, String db, Path work) throws IOException, InterruptedException {
    Path cp = Path.of(System.getProperty("sluice.hudi.sync.classpath"));
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx512m", "-XX:TieredStopAtLevel=1",
        "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens", "java.base/java.util=ALL-UNNAMED",
        "--add-opens", "java.base/java.net=ALL-UNNAMED", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
        "-cp", Files.readString(cp).trim(), "org.apache.hudi.hive.HiveSyncTool",
        "--base-path", base.toString(), "--database", db, "--table", "trips", "--partitioned-by", "city",
        "--metastore-uris", server.uri(), "--sync-mode", "hms"));
    Path log = work.resolve("hudi-sync-" + db + ".log");
    Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    assertTrue(p.waitFor(180, TimeUnit.SECONDS), "Hudi's sync did not finish");
    assertEquals(0, p.exitValue(), () -> {
      try {
        return Files.readString(log);
      } catch (IOException e) {
        return e.toString();
      }
    });
  }

  static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.sorted(Comparator.naturalOrder()).toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
  }

  /** What is compared of one metastore table, locations made relative to its base path. */
  static Map<String, String> facts(String db, String name, Path base) {
    var t = HiveSyncTest.hiveTable(db, name);
    Map<String, String> out = new TreeMap<>();
    out.put("tableType", t.getTableType());
    out.put("inputFormat", t.getSd().getInputFormat());
    out.put("outputFormat", t.getSd().getOutputFormat());
    out.put("serde", t.getSd().getSerdeInfo().getSerializationLib());
    out.put("location", relative(t.getSd().getLocation(), base));
    out.put("columns", HiveSyncTest.columns(t).toString());
    out.put("partitionKeys", t.getPartitionKeys().stream().map(c -> c.getName() + ":" + c.getType()).toList()
        .toString());
    t.getParameters().forEach((k, v) -> {
      if (k.startsWith("spark.sql.sources.") || k.equals("EXTERNAL") || k.equals(HiveSync.LAST_COMMIT)) {
        out.put("table." + k, v);
      }
    });
    t.getSd().getSerdeInfo().getParameters().forEach((k, v) -> out.put("serde." + k, k.equals("path")
        ? relative(v, base) : v));
    try (Metastore ms = Metastore.connect(List.of(server.uri()))) {
      for (Partition p : ms.partitions(db, name)) {
        out.put("partition." + p.getValues(), relative(p.getSd().getLocation(), base) + " "
            + p.getSd().getInputFormat());
      }
    }
    return out;
  }

  private static String relative(String location, Path base) {
    String l = location.replaceFirst("^file:", "");
    return l.startsWith(base.toString()) ? "<base>" + l.substring(base.toString().length()) : location;
  }

  private void compare(TableType type, List<String> names) throws IOException, InterruptedException {
    String suffix = type == TableType.COPY_ON_WRITE ? "cow" : "mor";
    Path mine = dir.resolve("sluice");
    Config options = HiveSyncTest.syncOptions("sluice_" + suffix);
    // version 6: Hudi 0.15's sync, the oracle here, reads only version 6 tables
    Table t = HiveSyncTest.create(mine, type, options, 6);
    t.insert(HiveSyncTest.rows(t.schema(), "sf", 0, 5).iterator());
    t.insert(HiveSyncTest.rows(t.schema(), "nyc", 5, 5).iterator());
    t.upsert(HiveSyncTest.rows(t.schema(), "sf", 0, 2).iterator());
    Path copy = dir.resolve("hudi");
    copy(mine, copy);
    HiveSyncTest.sync(t, options);
    hudiSync(copy, "hudi_" + suffix, dir);
    for (String name : names) {
      Map<String, String> ours = facts("sluice_" + suffix, name, mine);
      Map<String, String> theirs = facts("hudi_" + suffix, name, copy);
      assertEquals(theirs, ours, name);
      assertTrue(ours.keySet().stream().anyMatch(k -> k.startsWith("partition.")), ours.toString());
    }
  }

  /**
   * One step of a scenario: the table copied afresh to Hudi's side (same folder each time, so both metastore tables
   * keep their locations), synced by both, every metastore table compared; returns Sluice's partitions.
   */
  private List<String> syncBoth(Table t, Config options, String suffix, List<String> names)
      throws IOException, InterruptedException {
    return syncBoth(dir, Path.of(t.location()), options, suffix, names);
  }

  /** {@link #syncBoth(Table, Config, String, List)} of the table at {@code mine}, scratch files in {@code dir}. */
  static List<String> syncBoth(Path dir, Path mine, Config options, String suffix, List<String> names)
      throws IOException, InterruptedException {
    Path copy = dir.resolve("hudi");
    if (Files.exists(copy)) {
      try (Stream<Path> files = Files.walk(copy)) {
        for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(f);
        }
      }
    }
    copy(mine, copy);
    HiveSyncTest.sync(Tables.open(mine.toString(), options), options);
    hudiSync(copy, "hudi_" + suffix, dir);
    List<String> partitions = null;
    for (String name : names) {
      Map<String, String> ours = facts("sluice_" + suffix, name, mine);
      Map<String, String> theirs = facts("hudi_" + suffix, name, copy);
      assertEquals(theirs, ours, name);
      partitions = List.copyOf(HiveSyncTest.partitions("sluice_" + suffix, name).keySet());
    }
    return partitions;
  }

  /**
   * Deleting every row of a partition, a clean after it, a rollback of a synced commit that made a partition, and a
   * failed write: Hudi's sync drops none of these partitions (only a delete_partition or insert_overwrite
   * replacecommit, or a clean that deleted the partition folder, does), and neither does Sluice's.
   */
  private void deletesCleansRollbacksAndFailedWrites(TableType type, List<String> names)
      throws IOException, InterruptedException {
    String suffix = (type == TableType.COPY_ON_WRITE ? "cow" : "mor") + "_drops";
    Config options = HiveSyncTest.syncOptions("sluice_" + suffix).with("hoodie.cleaner.commits.retained", "1")
        .with("hoodie.clean.automatic", "false");
    // version 6: Hudi 0.15's sync, the oracle here, reads only version 6 tables
    Table t = HiveSyncTest.create(dir.resolve("sluice"), type, options, 6);
    t.insert(HiveSyncTest.rows(t.schema(), "sf", 0, 5).iterator());
    t.insert(HiveSyncTest.rows(t.schema(), "nyc", 5, 5).iterator());
    assertEquals(List.of("nyc", "sf"), syncBoth(t, options, suffix, names));

    // every row of nyc deleted: the partition is still written to, so both keep it
    t.delete(HiveSyncTest.rows(t.schema(), "nyc", 5, 5).iterator());
    assertEquals(List.of("nyc", "sf"), syncBoth(t, options, suffix, names));
    // more commits, then a clean of the old file versions
    t.upsert(HiveSyncTest.rows(t.schema(), "sf", 0, 2).iterator());
    t.upsert(HiveSyncTest.rows(t.schema(), "sf", 0, 3).iterator());
    if (type == TableType.MERGE_ON_READ) {
      // a compaction gives the file groups a new slice, so the clean has old slices to delete
      t.compaction().run(t.compaction().scheduleNow().orElseThrow());
      t.upsert(HiveSyncTest.rows(t.schema(), "sf", 0, 1).iterator());
    }
    assertFalse(t.clean().isEmpty(), "the clean deleted nothing");
    assertEquals(List.of("nyc", "sf"), syncBoth(t, options, suffix, names));

    // a synced commit that made partition la, rolled back: la stays listed, last_commit_time_sync moves back
    String la = t.insert(HiveSyncTest.rows(t.schema(), "la", 20, 2).iterator()).instantTime();
    assertEquals(List.of("la", "nyc", "sf"), syncBoth(t, options, suffix, names));
    t.rollback(la);
    assertEquals(List.of("la", "nyc", "sf"), syncBoth(t, options, suffix, names));

    // a write that failed after writing into a new partition (oak): not synced
    String last = t.inspect().lastCompletedCommit().orElseThrow();
    String failed = String.valueOf(Long.parseLong(la) + 1);
    Path hoodie = dir.resolve("sluice").resolve(".hoodie");
    String action = type == TableType.COPY_ON_WRITE ? "commit" : "deltacommit";
    Files.writeString(hoodie.resolve(failed + "." + action + ".requested"), "");
    Files.writeString(hoodie.resolve(failed + "." + action + ".inflight"), "");
    Path oak = Files.createDirectories(dir.resolve("sluice").resolve("oak"));
    Files.copy(dir.resolve("sluice").resolve("sf").resolve(".hoodie_partition_metadata"),
        oak.resolve(".hoodie_partition_metadata"));
    assertEquals(List.of("la", "nyc", "sf"), syncBoth(t, options, suffix, names));
    assertEquals(last, HiveSyncTest.hiveTable("sluice_" + suffix, names.get(0)).getParameters()
        .get(HiveSync.LAST_COMMIT));

    // the next commit (which rolls the failed one back first) brings its own partition and nothing else
    Table again = Tables.open(dir.resolve("sluice").toString(), options);
    String next = again.insert(HiveSyncTest.rows(again.schema(), "ba", 30, 2).iterator()).instantTime();
    assertEquals(List.of("ba", "la", "nyc", "sf"), syncBoth(again, options, suffix, names));
    assertEquals(next, HiveSyncTest.hiveTable("sluice_" + suffix, names.get(0)).getParameters()
        .get(HiveSync.LAST_COMMIT));
  }

  @Test
  void copyOnWriteDeletesCleansRollbacksAndFailedWritesMatchHudisSync() throws IOException, InterruptedException {
    deletesCleansRollbacksAndFailedWrites(TableType.COPY_ON_WRITE, List.of("trips"));
  }

  @Test
  void mergeOnReadDeletesCleansRollbacksAndFailedWritesMatchHudisSync() throws IOException, InterruptedException {
    deletesCleansRollbacksAndFailedWrites(TableType.MERGE_ON_READ, List.of("trips_ro", "trips_rt", "trips"));
  }

  @Test
  void copyOnWriteMatchesHudisSync() throws IOException, InterruptedException {
    compare(TableType.COPY_ON_WRITE, List.of("trips"));
  }

  @Test
  void mergeOnReadMatchesHudisSync() throws IOException, InterruptedException {
    compare(TableType.MERGE_ON_READ, List.of("trips_ro", "trips_rt", "trips"));
  }
}
