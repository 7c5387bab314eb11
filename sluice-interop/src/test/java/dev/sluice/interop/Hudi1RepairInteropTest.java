package dev.sluice.interop;

import static dev.sluice.interop.MergeOnReadInteropTest.SCHEMA;
import static dev.sluice.interop.MergeOnReadInteropTest.byKey;
import static dev.sluice.interop.MergeOnReadInteropTest.row;
import static dev.sluice.interop.MergeOnReadInteropTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.MergeMode;
import dev.sluice.api.RepairItem;
import dev.sluice.api.RepairReport;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A version-9 table Sluice repaired stays a Hudi 1.1.1 table: Hudi reads the same rows, file slices, completion times
 * and commit metadata (the rebuilt delta commit's Avro included) as Sluice, then upserts on top and Sluice reads that.
 */
class Hudi1RepairInteropTest {
  private static final Map<String, String> HUDI = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locateHudi1();
  }

  @Test
  void hudiReadsAndContinuesARepairedVersion9MergeOnReadTable() throws IOException {
    TableSpec spec = TableSpec.builder("repaired9").type(TableType.MERGE_ON_READ).recordKey("id").precombine("ts")
        .schema(SCHEMA).mergeMode(MergeMode.EVENT_TIME_ORDERING).tableVersion(9).partitionBy("part").build();
    Path p = dir.resolve("repaired9");
    Table t = Tables.create(p.toString(), spec, Config.of(Map.of("hoodie.index.bloom.num_entries", "1000",
        "hoodie.parquet.small.file.limit", "0", "hoodie.metadata.enable", "false")));
    Hudi1ReadsSluiceTablesTest.writeAll(t);
    Map<String, Map<String, String>> expected = byKey(rows(t.newScan()));

    Path timeline = p.resolve(".hoodie/timeline");
    List<Path> commits;
    try (Stream<Path> s = Files.list(timeline)) {
      commits = s.filter(f -> f.getFileName().toString().matches("\\d+_\\d+\\.deltacommit")).sorted().toList();
    }
    // damage: a completed delta commit cut in half, a leftover base file, a torn block at the end of a log file, a
    // damaged hoodie.properties beside a valid backup
    Path middle = commits.get(1);
    Files.write(middle, Arrays.copyOf(Files.readAllBytes(middle), (int) Files.size(middle) / 2));
    String first = commits.get(0).getFileName().toString().substring(0, 17);
    Path base;
    try (Stream<Path> s = Files.list(p.resolve("p1"))) {
      base = s.filter(f -> f.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    Files.copy(base, base.resolveSibling("0a0a0a0a-0000-0000-0000-000000000000-0_0-0-0_"
        + (Long.parseLong(first) + 1) + ".parquet"));
    Path log;
    try (Stream<Path> s = Files.list(p.resolve("p2"))) {
      log = s.filter(f -> f.getFileName().toString().contains(".log.")).sorted().reduce((a, b) -> b).orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(log);
    byte[] torn = Arrays.copyOf(bytes, bytes.length + 100);
    System.arraycopy(bytes, 0, torn, bytes.length, 100);
    Files.write(log, torn);
    Path props = p.resolve(".hoodie/hoodie.properties");
    Files.copy(props, p.resolve(".hoodie/hoodie.properties.backup"));
    Files.writeString(props, Files.readString(props).replaceAll("hoodie.table.checksum=\\d+", "hoodie.table.checksum=1"));

    RepairReport report = t.repair(true);
    assertTrue(report.items().stream().allMatch(RepairItem::fixed), report.items().toString());
    assertEquals(Set.of("TABLE_CONFIG", "BROKEN_INSTANT", "LEFTOVER_FILE", "CORRUPT_LOG_BLOCK"),
        report.items().stream().map(RepairItem::kind).collect(Collectors.toSet()), report.items().toString());
    Table repaired = Tables.open(p.toString());
    assertEquals(expected, byKey(rows(repaired.newScan())), "every committed row is intact");

    OracleBatch read = oracle.batch();
    Hudi1ReadsSluiceTablesTest.HudiView hudi = Hudi1ReadsSluiceTablesTest.ask(read, repaired, false);
    read.run();
    Hudi1ReadsSluiceTablesTest.assertSame(hudi, repaired);

    OracleBatch write = oracle.batch();
    write.write(p, "upsert", SCHEMA, List.of(row("k1", 9, "p1", "a9"), row("k9", 1, "p2", "i")), HUDI);
    OracleBatch.Pending<List<GenericRecord>> afterHudi = write.read(p, "snapshot", Optional.empty(), false);
    write.run();
    assertEquals(byKey(afterHudi.get()), byKey(rows(Tables.open(p.toString()).newScan())),
        "Sluice reads Hudi's upsert into the repaired table");
    assertTrue(Tables.open(p.toString()).repair(false).sound());
  }
}
