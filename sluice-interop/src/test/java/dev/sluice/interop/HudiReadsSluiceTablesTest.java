package dev.sluice.interop;

import dev.sluice.internal.service.TableInternals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.api.MergeMode;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Apache Hudi reads the Copy-on-Write tables Sluice writes: after an insert, an upsert (updates and inserts) and
 * a delete, Hudi's timeline, file-system view, Parquet reader, footer bloom-filter code and schema resolver agree
 * with Sluice and with the rows the test expects, for each key/partition layout.
 */
class HudiReadsSluiceTablesTest {

  private static final String[] PARTS = {"north", "south", "east"};

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  @ParameterizedTest
  @EnumSource(KeyLayout.class)
  void hudiReadsWhatSluiceWrote(KeyLayout layout) {
    Path location = dir.resolve(layout.name().toLowerCase());
    TableSpec spec = layout.spec("sluice_" + layout.name().toLowerCase(), MergeMode.EVENT_TIME_ORDERING);
    // One layout keeps Sluice's default writer options (Hudi's bloom filter size); the others small filters.
    Table table = layout == KeyLayout.NON_PARTITIONED ? Tables.create(location.toString(), spec, Config.empty())
        : WideRows.create(location, spec, Map.of());
    ExpectedTable model = layout.model(true);
    List<String> commits = new ArrayList<>();

    List<GenericRecord> inserts = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      // the complex-key layout shares ids between two rows with different subs
      String id = String.format("id%02d", layout == KeyLayout.COMPLEX_KEY ? i / 2 : i);
      inserts.add(WideRows.row(id, i % 2 + 1, 1, PARTS[i % 3], i == 11 ? null : "r" + (i % 2), i + 1));
    }
    commits.add(model.upsert(inserts, rs -> table.insert(rs.iterator()).instantTime()));
    Map<String, ExpectedTable.Entry> afterInsert = model.snapshot();

    List<GenericRecord> upserts = new ArrayList<>();
    for (int i : new int[] {0, 3, 7, 10}) {
      upserts.add(WideRows.update(inserts.get(i), 2, 40 + i));
    }
    upserts.add(WideRows.row("id20", 1, 2, PARTS[0], "r0", 21));
    upserts.add(WideRows.row("id21", 2, 2, PARTS[1], "r1", 22));
    upserts.add(WideRows.row("id22", 1, 2, PARTS[2], "r1", 23));
    commits.add(model.upsert(upserts, rs -> table.upsert(rs.iterator()).instantTime()));

    // One delete by a key-only row of the table's key schema, one by a full row.
    Schema keySchema = table.keySchema();
    GenericRecord keyOnly = new GenericData.Record(keySchema);
    for (Schema.Field f : keySchema.getFields()) {
      keyOnly.put(f.name(), inserts.get(5).get(f.name()));
    }
    commits.add(model.delete(List.of(keyOnly, inserts.get(8)), rs -> table.delete(rs.iterator()).instantTime()));

    List<GenericRecord> sluiceRows = Rows.scan(table, Optional.empty());
    model.assertHeldBy(sluiceRows, "Sluice");
    InteropChecks.assertRowsInLatestFiles(sluiceRows, table);

    // Everything Hudi is asked about this table, in one oracle JVM.
    OracleBatch batch = oracle.batch();
    var hudiRead = batch.read(location, "snapshot", Optional.empty(), false);
    var hudiView = batch.fsview(location);
    var hudiTimeline = batch.timeline(location);
    var hudiSchema = batch.schema(location);
    BloomProbe probe = bloomProbe(layout, table, sluiceRows, commits.get(2));
    var hudiBloom = batch.bloom(probe.file(), probe.asked());
    Optional<OracleBatch.Pending<List<GenericRecord>>> hudiFirst = layout == KeyLayout.PARTITIONED
        ? Optional.of(batch.read(location, "snapshot", Optional.of(commits.get(0)), false)) : Optional.empty();
    batch.run();

    List<GenericRecord> hudiRows = hudiRead.get();
    Rows.assertSameRows(sluiceRows, hudiRows, "Hudi's read vs Sluice's");
    model.assertHeldBy(hudiRows, "Hudi");
    InteropChecks.assertSameFileSystemView(hudiView.get(), table);
    InteropChecks.assertCompletedCommits(hudiTimeline.get(), commits);
    InteropChecks.assertSchema(hudiSchema.get(), table, WideRows.SCHEMA);
    InteropChecks.assertBloomFilter(hudiBloom.get(), probe.file(), probe.present(), probe.absent());
    if (hudiFirst.isPresent()) {
      // Time travel: Hudi and Sluice both see the insert alone as of the first commit.
      ExpectedTable.assertHeldBy(ExpectedTable.ordered(afterInsert), hudiFirst.get().get(), "Hudi as of " + commits.get(0));
      Rows.assertSameRows(hudiFirst.get().get(), Rows.scan(table, Optional.of(commits.get(0))),
          "Sluice vs Hudi as of first commit");
    }
  }

  /** A base file and the keys to ask Hudi's bloom filter about: those in the file and absent ones. */
  private record BloomProbe(Path file, List<String> present, List<String> absent) {
    List<String> asked() {
      List<String> all = new ArrayList<>(present);
      all.addAll(absent);
      return all;
    }
  }

  /** The Sluice base file holding the most keys (one the delete rewrote, if it is among them). */
  private static BloomProbe bloomProbe(KeyLayout layout, Table table, List<GenericRecord> rows, String deleteCommit) {
    FileSystemView view = TableInternals.fileSystemView(table);
    List<BaseFile> all = new ArrayList<>();
    for (String p : view.partitions()) {
      all.addAll(view.latestBaseFiles(p));
    }
    BaseFile file = all.stream().max(Comparator.comparingInt((BaseFile b) -> InteropChecks.keysInFile(rows,
        b.fileName()).size()).thenComparing(b -> b.instantTime().equals(deleteCommit))).orElseThrow();
    List<String> present = InteropChecks.keysInFile(rows, file.fileName());
    assertTrue(present.size() >= 2, "keys in " + file + ": " + present);
    List<String> absent = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      absent.add(layout.recordKey(WideRows.row("absent" + i, i, 0, PARTS[0], "r0", 1)));
    }
    return new BloomProbe(Path.of(file.path()), present, absent);
  }
}
