package dev.sluice.api;

import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hoodie.metadata.enable} left unset: on, as Hudi 0.15's writers. The first action on a version-6 table that
 * finds no metadata table builds its {@code files} partition at {@code <latest completed instant>010} (or
 * {@code 00000000000000010} on an empty table) when no other instant is pending, and every action after mirrors
 * itself; {@code false} removes it. Versions 8 and 9 keep none whatever the option says.
 */
class MetadataTableDefaultTest {
  private static final Map<String, String> OFF = Map.of("hoodie.metadata.enable", "false");

  @TempDir
  Path dir;

  private final LocalStorage storage = new LocalStorage();

  private Timeline mdtTimeline() {
    return new TimelineStore(storage, dir.resolve(".hoodie/metadata").toString()).load();
  }

  private List<String> mdtCompleted() {
    return mdtTimeline().completed().instants().stream().map(Instant::time).toList();
  }

  private List<String> metadataPartitions() {
    return TableConfigStore.read(storage, dir.toString()).metadataPartitions();
  }

  /** The metadata table is there, lists exactly what storage holds, and reads list through it. */
  private void assertValidAndUsed(Table t) {
    MetadataTableView view = Tables.open(dir.toString()).metadataTable();
    assertTrue(view.usedForListings(), view.status());
    MetadataValidation check = view.validate();
    assertTrue(check.matches(), "the metadata table lists what storage holds: " + check.differences());
    assertTrue(check.files() > 0, "it lists the data files");
    assertEquals(10, TripFixture.rows(t).size(), "reads through it see every row");
  }

  @Test
  void unsetBuildsTheMetadataTableOnTheFirstWriteOfANewTableAndKeepsIt() {
    Table t = TripFixture.create(dir, TripFixture.spec().tableVersion(6).build(), Map.of());
    assertFalse(Files.exists(dir.resolve(".hoodie/metadata")), "creating a table builds none (as Hudi)");
    String c1 = t.insert(trips(0, 12, 2, 1).iterator()).instantTime();
    String c2 = t.upsert(trips(0, 4, 2, 2).iterator()).instantTime();
    String c3 = t.delete(trips(10, 2, 2, 3).iterator()).instantTime();
    assertEquals(List.of("files"), metadataPartitions());
    assertEquals(List.of("00000000000000010", c1, c2, c3), mdtCompleted(),
        "bootstrapped on the empty table before the first write, then each write mirrored at its instant");
    assertValidAndUsed(t);
  }

  @Test
  void aTableWrittenWithoutOneGetsOneAtItsLatestInstantOnTheNextWriteAndFalseRemovesIt() {
    Table off = TripFixture.create(dir, TripFixture.spec().tableVersion(6).type(TableType.MERGE_ON_READ).build(), OFF);
    off.insert(trips(0, 10, 2, 1).iterator());
    String last = off.upsert(trips(0, 3, 2, 2).iterator()).instantTime();
    assertFalse(Files.exists(dir.resolve(".hoodie/metadata")), "false: none is built");

    Table unset = Tables.open(dir.toString(), Config.of(Map.of("hoodie.index.bloom.num_entries", "1000")));
    String next = unset.upsert(trips(2, 3, 2, 3).iterator()).instantTime();
    assertEquals(List.of(last + "010", next), mdtCompleted(), "built over the completed instants, then mirrored");
    assertValidAndUsed(unset);

    off.upsert(trips(0, 2, 2, 4).iterator());
    assertFalse(Files.exists(dir.resolve(".hoodie/metadata")), "false removes it");
    assertTrue(metadataPartitions().isEmpty());
    assertEquals(10, TripFixture.rows(off).size());
  }

  @Test
  void aWriteRefusedWhileReadingItsInputBuildsNoMetadataTable() {
    Table off = TripFixture.create(dir, TripFixture.spec().build(), OFF);
    off.insert(trips(0, 10, 2, 1).iterator());
    Table unset = Tables.open(dir.toString(), Config.of(Map.of("hoodie.index.bloom.num_entries", "1000")));
    // the input fails at its fourth record, as a bad line in a file does: the batch is refused before any instant
    Iterator<GenericRecord> good = trips(0, 3, 2, 2).iterator();
    Iterator<GenericRecord> badAtFour = new Iterator<>() {
      @Override
      public boolean hasNext() {
        return true;
      }

      @Override
      public GenericRecord next() {
        if (good.hasNext()) {
          return good.next();
        }
        throw new IllegalArgumentException("input line 4: field 'ts' expected a long");
      }
    };
    assertThrows(IllegalArgumentException.class, () -> unset.upsert(badAtFour));
    assertFalse(Files.exists(dir.resolve(".hoodie/metadata")), "a refused write builds no metadata table");
    assertTrue(metadataPartitions().isEmpty(), "and hoodie.properties lists none");
    assertEquals(10, TripFixture.rows(unset).size());
    // the next good write builds it
    String next = unset.upsert(trips(0, 3, 2, 3).iterator()).instantTime();
    assertTrue(mdtCompleted().contains(next), mdtCompleted().toString());
  }

  @Test
  void aFailedWriteIsRolledBackFirstThenTheMetadataTableIsBuiltForTheSameWrite() {
    Table off = TripFixture.create(dir, TripFixture.spec().tableVersion(6).build(), OFF);
    off.insert(trips(0, 10, 2, 1).iterator());
    // a write that dies before its instant completes and whose own rollback fails: it stays pending, with its files
    // and markers, until the next write rolls it back
    AtomicBoolean dying = new AtomicBoolean(true);
    Storage failing = new InterceptedStorage(storage, call -> {
      String name = call.path().substring(call.path().lastIndexOf('/') + 1);
      boolean creates = call.op() == InterceptedStorage.Op.CREATE || call.op() == InterceptedStorage.Op.CREATE_EXCLUSIVE;
      if (dying.get() && creates && (name.endsWith(".commit") || name.contains(".rollback"))) {
        throw new IOException("injected failure of " + call);
      }
    });
    Table broken = Tables.open(failing, dir.toString(), Config.of(OFF));
    assertThrows(SluiceException.class, () -> broken.upsert(trips(0, 1, 2, 2).iterator()));
    dying.set(false);
    Instant failed = new TimelineStore(storage, dir.toString()).load().inflightWrites().get(0);

    Table unset = Tables.open(dir.toString(), Config.of(Map.of("hoodie.index.bloom.num_entries", "1000")));
    String next = unset.upsert(trips(5, 2, 2, 3).iterator()).instantTime();
    Timeline dt = new TimelineStore(storage, dir.toString()).load();
    Instant rollback = dt.filter(i -> i.action() == Action.ROLLBACK && i.isCompleted()).lastInstant().orElseThrow();
    assertFalse(dt.contains(failed.time()), "the failed write was rolled back");
    // as Hudi 0.15: failed writes rolled back, then the initialization at the latest completed instant (the rollback)
    assertEquals(List.of(rollback.time() + "010", next), mdtCompleted());
    assertValidAndUsed(unset);
  }

  @Test
  void aPendingCompactionDefersTheBootstrapUntilItCompletes() {
    Table off = TripFixture.create(dir, TripFixture.spec().tableVersion(6).type(TableType.MERGE_ON_READ).build(),
        Map.of("hoodie.metadata.enable", "false", "hoodie.compact.inline", "false"));
    off.insert(trips(0, 10, 2, 1).iterator());
    off.upsert(trips(0, 4, 2, 2).iterator());
    String compaction = off.compaction().scheduleNow().orElseThrow();

    Table unset = Tables.open(dir.toString(), Config.of(Map.of("hoodie.index.bloom.num_entries", "1000",
        "hoodie.compact.inline", "false")));
    unset.upsert(trips(0, 2, 2, 3).iterator());
    // as Hudi 0.15 ("operation(s) are in progress on the dataset"): the write goes on without one
    assertFalse(Files.exists(dir.resolve(".hoodie/metadata")), "not built over a pending compaction");
    assertTrue(metadataPartitions().isEmpty());

    unset.compaction().run(compaction);
    String next = unset.upsert(trips(3, 2, 2, 4).iterator()).instantTime();
    List<String> mdt = mdtCompleted();
    assertEquals(next, mdt.get(mdt.size() - 1), "the first write after it mirrors into a metadata table: " + mdt);
    assertTrue(mdt.get(0).endsWith("010"), "built from a listing: " + mdt);
    assertValidAndUsed(unset);
  }

  /**
   * The one place that decides: {@code TableSettings.withMetadataDefault} (reads and version-6 changes) with
   * {@code TableSettings.forChanges} (changes to versions 8/9 run without it).
   */
  @Test
  void theDecisionByTableVersionAndOption() {
    Map<String, Map<String, String>> options = Map.of("unset", Map.of(), "true", Map.of("hoodie.metadata.enable",
        "true"), "false", OFF);
    for (int version : List.of(6, 8, 9)) {
      for (boolean hasRecordIndex : List.of(false, true)) {
        Map<String, String> props = new HashMap<>(Map.of(TableConfig.NAME, "t", TableConfig.VERSION,
            Integer.toString(version)));
        props.put(TableConfig.METADATA_PARTITIONS, hasRecordIndex ? "files,record_index" : "files");
        TableConfig table = TableConfig.of(props);
        TimelineLayout layout = TimelineLayout.of(table);
        for (Map.Entry<String, Map<String, String>> o : options.entrySet()) {
          Config c = TableSettings.withMetadataDefault(Config.of(o.getValue()), table);
          Config changes = TableSettings.forChanges(c, layout);
          String what = "version " + version + ", hoodie.metadata.enable " + o.getKey();
          boolean reads = !o.getKey().equals("false");
          // every version keeps it now (8/9 in Hudi 1.x's form); the record index only on 6
          boolean keeps = reads;
          assertEquals(reads, TableSettings.read(c).metadataTable(), what + ": reads");
          assertEquals(keeps, TableSettings.commit(changes).metadataEnabled(), what + ": writes");
          if (keeps && version == 6) {
            assertEquals(hasRecordIndex, c.get(ConfigKeys.RECORD_INDEX_ENABLE),
                what + ": an unset record index follows the table's (never built unasked)");
          }
        }
      }
    }
    assertTrue(ConfigKeys.METADATA_ENABLE.defaultValue(), "the documented default: on, as Hudi's writers");
    assertFalse(ConfigKeys.RECORD_INDEX_ENABLE.defaultValue(), "the record index stays opt-in, as Hudi's");
  }
}
