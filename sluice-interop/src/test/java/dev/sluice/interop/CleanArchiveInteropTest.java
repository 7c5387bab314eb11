package dev.sluice.interop;

import dev.sluice.internal.service.TableInternals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

import dev.sluice.api.Table;
import dev.sluice.internal.archive.ArchiveLog;
import dev.sluice.internal.archive.ArchivedInstant;
import dev.sluice.api.MergeMode;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice cleans and archives a Copy-on-Write table on its own (automatically after its commits); Hudi 0.15 reads it
 * (snapshot, time travel inside the retained window, active and archived timeline), writes to it, cleaning and
 * archiving in turn over Sluice's clean and archive files, and Sluice reads Hudi's archive.
 */
class CleanArchiveInteropTest {
  private static final String[] PARTS = {"north", "south"};
  // the metadata table off as for Hudi's writer in this class (WideRows.NO_METADATA_TABLE says why)
  private static final Map<String, String> SLUICE = Map.of("hoodie.cleaner.commits.retained", "2",
      "hoodie.keep.min.commits", "3", "hoodie.keep.max.commits", "5", "hoodie.commits.archival.batch", "4",
      "hoodie.metadata.enable", "false");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  private static String line(Instant i) {
    return i.time() + " " + i.action().id() + " " + i.state();
  }

  private static List<String> lines(List<Map<String, String>> oracleInstants) {
    return oracleInstants.stream().map(i -> i.get("time") + " " + i.get("action") + " " + i.get("state"))
        .collect(Collectors.toList());
  }

  @Test
  void hudiReadsWritesCleansAndArchivesATableSluiceCleanedAndArchived() {
    Path location = dir.resolve("maintained");
    Table table = WideRows.create(location, KeyLayout.PARTITIONED.spec("maintained", MergeMode.EVENT_TIME_ORDERING),
        SLUICE);
    ExpectedTable model = KeyLayout.PARTITIONED.model(true);
    List<String> commits = new ArrayList<>();
    Map<String, List<ExpectedTable.Entry>> asOf = new HashMap<>();
    for (int round = 0; round < 8; round++) {
      List<GenericRecord> batch = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        batch.add(WideRows.row("k" + i, round, PARTS[i % 2], round * 10 + i));
      }
      String t = model.upsert(batch, rs -> table.upsert(rs.iterator()).instantTime());
      commits.add(t);
      asOf.put(t, model.entries());
    }
    List<Instant> active = TableInternals.timeline(table).instants();
    List<ArchivedInstant> archived = ArchiveLog.of(table.storage(), table.location()).read();
    assertTrue(active.stream().anyMatch(i -> i.action() == Action.CLEAN), "Sluice cleaned: " + active);
    assertTrue(archived.stream().anyMatch(a -> a.instant().time().equals(commits.get(0))), "Sluice archived c0");

    OracleBatch batch = oracle.batch();
    var hudiTimeline = batch.timeline(location);
    var hudiArchived = batch.archivedTimeline(location);
    var hudiRows = batch.read(location, "snapshot", Optional.empty(), false);
    // the retained window (2 commits) and the newest version before it
    Map<String, OracleBatch.Pending<List<GenericRecord>>> travel = new HashMap<>();
    for (String t : commits.subList(5, 8)) {
      travel.put(t, batch.read(location, "snapshot", Optional.of(t), false));
    }
    batch.run();
    assertEquals(active.stream().map(CleanArchiveInteropTest::line).toList(), lines(hudiTimeline.get()),
        "Hudi's active timeline");
    assertEquals(new TreeSet<>(archived.stream().map(a -> line(a.instant())).toList()),
        new TreeSet<>(lines(hudiArchived.get())), "Hudi's archived timeline");
    for (Map<String, String> a : hudiArchived.get()) {
      if (a.containsKey("recordsWritten")) {
        long sluice = archived.stream().filter(x -> x.instant().isCompleted() && x.instant().time().equals(a.get("time")))
            .findFirst().orElseThrow().commitMetadata().orElseThrow().totalRecordsWritten();
        assertEquals(sluice, Long.parseLong(a.get("recordsWritten")), "records of archived commit " + a.get("time"));
      }
    }
    assertTrue(hudiArchived.get().stream().anyMatch(a -> a.containsKey("recordsWritten")), hudiArchived.get().toString());
    model.assertHeldBy(hudiRows.get(), "Hudi after Sluice's clean and archival");
    Rows.assertSameRows(hudiRows.get(), Rows.scan(table, Optional.empty()), "Hudi vs Sluice");
    for (Map.Entry<String, OracleBatch.Pending<List<GenericRecord>>> e : travel.entrySet()) {
      ExpectedTable.assertHeldBy(asOf.get(e.getKey()), e.getValue().get(), "Hudi as of " + e.getKey());
      Rows.assertSameRows(e.getValue().get(), Rows.scan(table, Optional.of(e.getKey())), "as of " + e.getKey());
    }

    // Hudi writes with its cleaner and archiver on, both reading Sluice's clean metadata and archive files
    Map<String, String> hudiConf = Map.of("hoodie.metadata.enable", "false", "hoodie.index.bloom.num_entries", "1000",
        "hoodie.cleaner.commits.retained", "1", "hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3");
    String hudiCommit = model.upsert(List.of(WideRows.row("k1", 20, PARTS[1], 99), WideRows.row("k9", 20, PARTS[0], 98)),
        rs -> oracle.write(location, "upsert", WideRows.SCHEMA, rs, hudiConf));
    List<ArchivedInstant> afterHudi = ArchiveLog.of(table.storage(), table.location()).read();
    assertTrue(ArchiveLog.of(table.storage(), table.location()).files().size() >= 2, "Hudi added an archive file");
    assertTrue(afterHudi.size() > archived.size(), "Sluice reads the instants Hudi archived");
    assertTrue(afterHudi.stream().map(ArchivedInstant::instant).toList().containsAll(
        archived.stream().map(ArchivedInstant::instant).toList()), "Sluice's own archived instants are still there");
    assertFalse(TableInternals.timeline(table).instants().stream().anyMatch(i -> i.time().equals(commits.get(5))),
        "Hudi archived further");

    String sluiceCommit = model.upsert(List.of(WideRows.row("k0", 30, PARTS[0], 100)),
        rs -> table.upsert(rs.iterator()).instantTime());
    OracleBatch after = oracle.batch();
    var rows = after.read(location, "snapshot", Optional.empty(), false);
    var timeline = after.timeline(location);
    var archivedAgain = after.archivedTimeline(location);
    after.run();
    model.assertHeldBy(rows.get(), "Hudi after Hudi's and Sluice's last writes");
    Rows.assertSameRows(rows.get(), Rows.scan(table, Optional.empty()), "Hudi vs Sluice at the end");
    assertEquals(TableInternals.timeline(table).instants().stream().map(CleanArchiveInteropTest::line).toList(), lines(timeline.get()));
    assertTrue(lines(timeline.get()).containsAll(List.of(hudiCommit + " commit COMPLETED",
        sluiceCommit + " commit COMPLETED")));
    assertEquals(new TreeSet<>(ArchiveLog.of(table.storage(), table.location()).read().stream()
        .map(a -> line(a.instant())).toList()), new TreeSet<>(lines(archivedAgain.get())));
  }
}
