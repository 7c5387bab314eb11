package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.MergeMode;
import dev.sluice.api.RepairItem;
import dev.sluice.api.RepairReport;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table Sluice repaired stays a Hudi table: Hudi 0.15 reads the same rows as Sluice and the model (every committed
 * row), before and after Sluice and then Hudi write on.
 */
class RepairInteropTest {
  private static final String[] PARTS = {"north", "south"};
  private static final Map<String, String> HUDI_WRITE = Map.of("hoodie.metadata.enable", "false",
      "hoodie.index.bloom.num_entries", "1000", "hoodie.parquet.small.file.limit", "0");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  @Test
  void hudiReadsARepairedMergeOnReadTable() throws IOException {
    Path location = dir.resolve("repaired");
    TableSpec spec = TableSpec.builder("repaired").type(TableType.MERGE_ON_READ).precombine("ts").schema(WideRows.SCHEMA)
        .mergeMode(MergeMode.EVENT_TIME_ORDERING).recordKey("id").partitionBy("part").tableVersion(6).build();
    Table table = WideRows.create(location, spec, Map.of("hoodie.parquet.small.file.limit", "0",
        "hoodie.metadata.enable", "false"));
    ExpectedTable model = KeyLayout.PARTITIONED.model(true);
    List<GenericRecord> rows = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      rows.add(WideRows.row("k" + i, 1, PARTS[i % 2], i + 1));
    }
    model.upsert(rows, rs -> table.insert(rs.iterator()).instantTime());
    model.upsert(List.of(WideRows.update(rows.get(0), 2, 20), WideRows.update(rows.get(1), 2, 21)),
        rs -> table.upsert(rs.iterator()).instantTime());
    model.upsert(List.of(WideRows.update(rows.get(2), 3, 30), WideRows.update(rows.get(3), 3, 31)),
        rs -> table.upsert(rs.iterator()).instantTime());

    Path meta = location.resolve(".hoodie");
    List<Path> commits;
    try (Stream<Path> s = Files.list(meta)) {
      commits = s.filter(p -> p.getFileName().toString().endsWith(".deltacommit")).sorted().toList();
    }
    String first = commits.get(0).getFileName().toString().substring(0, 17);
    // a broken old commit file, a leftover base file, stale markers, a damaged config with its backup, and a
    // half-written block at the end of a log file
    Files.writeString(commits.get(1), "{\"partitionToWriteStats\": {");
    Path base;
    try (Stream<Path> s = Files.list(location.resolve("north"))) {
      base = s.filter(p -> p.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    Files.copy(base, base.resolveSibling("0a0a0a0a-0000-0000-0000-000000000000-0_0-0-0_"
        + (Long.parseLong(first) + 1) + ".parquet"));
    Files.createDirectories(meta.resolve(".temp/" + first));
    Files.copy(meta.resolve("hoodie.properties"), meta.resolve("hoodie.properties.backup"));
    Files.writeString(meta.resolve("hoodie.properties"), Files.readString(meta.resolve("hoodie.properties"))
        .replaceAll("hoodie.table.checksum=\\d+", "hoodie.table.checksum=1"));
    Path log;
    try (Stream<Path> s = Files.list(location.resolve("south"))) {
      log = s.filter(p -> p.getFileName().toString().contains(".log.")).sorted().reduce((a, b) -> b).orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(log);
    byte[] torn = Arrays.copyOf(bytes, bytes.length + 100);
    System.arraycopy(bytes, 0, torn, bytes.length, 100);
    Files.write(log, torn);

    RepairReport report = table.repair(true);
    assertTrue(report.items().stream().allMatch(RepairItem::fixed), report.items().toString());
    assertTrue(report.items().size() >= 5, report.items().toString());
    model.assertBothHold(oracle, location, table, "after the repair");

    // Sluice writes on; Hudi reads that too
    model.upsert(List.of(WideRows.update(rows.get(4), 4, 40), WideRows.row("s1", 4, PARTS[0], 41)),
        rs -> table.upsert(rs.iterator()).instantTime());
    model.assertBothHold(oracle, location, table, "after Sluice's upsert into the repaired table");
    assertTrue(table.repair(false).sound());

    // Hudi's writer loads every commit's metadata (the rebuilt one too) and writes on. Small-file routing off: with
    // its default limit Hudi 0.15's Java client rewrites north's small base file without its log updates, on any
    // table (HudiUpsertsIntoMergeOnReadTest), which is not what this test is about.
    model.upsert(List.of(WideRows.update(rows.get(0), 5, 50), WideRows.update(rows.get(5), 5, 55),
        WideRows.row("h1", 5, PARTS[0], 56)), rs -> oracle.write(location, "upsert", WideRows.SCHEMA, rs, HUDI_WRITE));
    model.assertBothHold(oracle, location, table, "after Hudi's upsert into the repaired table");
    assertTrue(table.repair(false).sound());
  }


}
