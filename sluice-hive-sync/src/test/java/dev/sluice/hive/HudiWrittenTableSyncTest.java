package dev.sluice.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CleanInfo;
import dev.sluice.api.Config;
import dev.sluice.api.Tables;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partition drops on a table Hudi 0.15 writes with Spark (module {@code hudi-spark-oracle}, in its own JVM): Sluice
 * has no {@code delete_partition} or {@code insert_overwrite} of its own, but syncs tables that have them. After each
 * step both Sluice's sync and Hudi's {@code HiveSyncTool} sync the table into one real metastore and every fact of
 * the metastore tables must match (see {@link HudiSyncComparisonTest}).
 */
class HudiWrittenTableSyncTest {
  // Spark 3.5 on Java 17 needs these opened (as sluice-interop's HudiSpark passes them)
  private static final List<String> JAVA_FLAGS = List.of("-XX:+IgnoreUnrecognizedVMOptions", "-Xmx1g",
      "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djdk.reflect.useDirectMethodHandle=false",
      "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED", "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
      "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED");
  private static final String DDL = "id STRING, city STRING, fare DOUBLE, ts BIGINT";

  @TempDir
  Path dir;

  @BeforeAll
  static void startMetastore() throws IOException, InterruptedException {
    HiveSyncTest.server = MetastoreServer.shared();
    HudiSyncComparisonTest.server = HiveSyncTest.server;
  }

  /** Writes {@code rows} ({@code id,city} pairs) to the table at {@code table} with Hudi's Spark datasource. */
  private void hudiWrite(Path table, String op, List<String[]> rows, Map<String, String> extra)
      throws IOException, InterruptedException {
    Path oracle = Path.of(System.getProperty("sluice.spark.oracle.dir")).toAbsolutePath().normalize();
    String cp = String.join(File.pathSeparator, oracle.resolve("classes").toString(),
        Files.readString(oracle.resolve("oracle.classpath"), StandardCharsets.UTF_8).trim(),
        oracle.resolve("bundles").resolve("hudi-0.15.0.jar").toString());
    Path input = Files.createTempFile(dir, "rows", ".json");
    StringBuilder json = new StringBuilder();
    long ts = 1;
    for (String[] r : rows) {
      json.append("{\"id\":\"").append(r[0]).append("\",\"city\":\"").append(r[1]).append("\",\"fare\":1.5,\"ts\":")
          .append(ts++).append("}\n");
    }
    Files.writeString(input, json);
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> cmd = new ArrayList<>(List.of(java));
    cmd.addAll(JAVA_FLAGS);
    cmd.addAll(List.of("-cp", cp, "dev.sluice.oracle.SparkOracle", "write", "--table", table.toString(), "--op", op,
        "--input", input.toString(), "--schema-ddl", DDL));
    Map<String, String> conf = new java.util.LinkedHashMap<>(Map.of("hoodie.table.name", "trips",
        "hoodie.datasource.write.recordkey.field", "id", "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.datasource.write.partitionpath.field", "city",
        "hoodie.datasource.write.table.type", "COPY_ON_WRITE"));
    conf.putAll(extra);
    conf.forEach((k, v) -> {
      cmd.add("--conf");
      cmd.add(k + "=" + v);
    });
    Path log = dir.resolve("spark-" + op + ".log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "Hudi's Spark write did not finish");
    if (p.exitValue() != 0) {
      String out = Files.readString(log);
      throw new AssertionError("Hudi's Spark " + op + " failed:\n" + out.substring(Math.max(0, out.length() - 6000)));
    }
  }

  private static List<String[]> rows(String city, int from, int n) {
    List<String[]> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      out.add(new String[] {"k" + i, city});
    }
    return out;
  }

  @Test
  void deletePartitionAndInsertOverwriteDropAsInHudisSync() throws IOException, InterruptedException {
    Path table = dir.resolve("sluice");
    Config options = HiveSyncTest.syncOptions("sluice_hudi_written");
    List<String[]> first = new ArrayList<>(rows("sf", 0, 3));
    first.addAll(rows("nyc", 3, 3));
    first.addAll(rows("la", 6, 3));
    first.addAll(rows("oak", 9, 3));
    hudiWrite(table, "insert", first, Map.of());
    List<String> names = List.of("trips");
    String suffix = "hudi_written";
    assertEquals(List.of("la", "nyc", "oak", "sf"),
        HudiSyncComparisonTest.syncBoth(dir, table, options, suffix, names));

    // delete_partition: a replacecommit that replaces every file group of nyc; both drop it
    hudiWrite(table, "delete_partition", rows("nyc", 3, 1),
        Map.of("hoodie.datasource.write.partitions.to.delete", "nyc"));
    assertEquals(List.of("la", "oak", "sf"), HudiSyncComparisonTest.syncBoth(dir, table, options, suffix, names));

    // insert_overwrite_table with rows of sf only: la and oak replaced and written nowhere, so dropped; sf kept
    hudiWrite(table, "insert_overwrite_table", rows("sf", 20, 2), Map.of());
    assertEquals(List.of("sf"), HudiSyncComparisonTest.syncBoth(dir, table, options, suffix, names));

    // la written again, and a clean after that commit keeping one commit: it deletes the replaced files and marks
    // the partitions it emptied (nyc, oak) deleted; neither was written since the last sync, so neither sync looks
    // at them, and la comes back
    hudiWrite(table, "insert", rows("la", 30, 2), Map.of("hoodie.cleaner.commits.retained", "1",
        "hoodie.clean.automatic", "true"));
    var inspection = Tables.open(table.toString()).inspect();
    List<String> cleanedAway = inspection.timeline().stream().filter(i -> i.action().equals("clean") && i.isCompleted())
        .flatMap(i -> inspection.cleanMetadata(i).map(CleanInfo::partitions).orElse(List.of()).stream())
        .filter(CleanInfo.Partition::partitionDeleted).map(CleanInfo.Partition::partitionPath).sorted().toList();
    assertTrue(cleanedAway.contains("oak"), "Hudi's clean deleted the partitions " + cleanedAway);
    assertEquals(List.of("la", "sf"), HudiSyncComparisonTest.syncBoth(dir, table, options, suffix, names));
  }
}
