package dev.sluice.internal.compact;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.internal.compact.CompactFixture.round;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.TripFixture;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.storage.CrashingStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compactor that dies midway leaves an inflight compaction: readers keep seeing the rows as before, and running it
 * again rolls its partial files back (a rollback instant; the plan stays) and produces the same rows. On table
 * versions 6 and 9 (layout 2: the rollback and the compaction's commit named with completion times).
 */
class CompactionCrashTest {
  @TempDir
  Path dir;

  private Map<String, String> expectedAfterWrites(Table t, CompactFixture.Model model) {
    List<GenericRecord> a = round(0, 30, 10, "a");
    t.insert(a.iterator());
    model.upsert(a);
    for (int i = 0; i < 3; i++) {
      List<GenericRecord> u = round(i * 5, 12, 20 + i, "u" + i);
      t.upsert(u.iterator());
      model.upsert(u);
    }
    List<GenericRecord> gone = round(25, 3, 40, null);
    t.delete(gone.iterator());
    model.delete(gone);
    return model.expected();
  }

  private Table crashingHandle(CrashingStorage storage) {
    Map<String, String> o = new HashMap<>(CompactFixture.BASE);
    o.put("sluice.write.parallelism", "1");
    return Tables.open(storage.storage(), dir.toString(), Config.of(o));
  }

  private void crashThenRerun(int version, Predicate<String> at, long nth, boolean expectRollback) {
    CompactFixture.Model model = new CompactFixture.Model();
    Table t = TripFixture.create(dir, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(version).build(),
        CompactFixture.BASE);
    Map<String, String> expected = expectedAfterWrites(t, model);
    String instant = t.compaction().scheduleNow().orElseThrow();
    int groups = t.compaction().plan(instant).operations().size();

    CrashingStorage storage = new CrashingStorage(new LocalStorage());
    storage.crashAt(c -> at.test(c.replace(instant, "<C>")), nth);
    Table dying = crashingHandle(storage);
    assertThrows(CrashingStorage.Crash.class, () -> dying.compaction().run(instant));
    assertTrue(storage.crashed());
    storage.restart();

    assertTrue(TableInternals.timeline(t).find(instant).map(Instant::isInflight).orElse(false), "left inflight");
    assertEquals(expected, CompactFixture.snapshot(t), "partial compaction output is invisible");
    assertEquals(List.of(instant), t.compaction().pending());

    CompactionResult r = TableInternals.compaction(t).run(instant);
    assertEquals(groups, r.baseFilesWritten());
    assertEquals(expected, CompactFixture.snapshot(t));
    assertEquals(expected, CompactFixture.readOptimized(t));
    long outputs = CompactFixture.baseFiles(dir).stream().filter(p -> p.endsWith("_" + instant + ".parquet")).count();
    assertEquals(groups, outputs, "one new base file per planned group, no leftovers");
    List<Instant> rollbacks = TableInternals.timeline(t).filter(i -> i.action() == Action.ROLLBACK && i.isCompleted()).instants();
    assertEquals(expectRollback ? 1 : 0, rollbacks.size());
    if (expectRollback) {
      TimelineStore store = new TimelineStore(t.storage(), t.location());
      byte[] bytes = store.read(rollbacks.get(0));
      RollbackMetadata md = RollbackMetadata.fromAvroBytes(bytes, "rollback");
      assertEquals(List.of(instant), md.commitsRollback());
      String timeline = version == 6 ? ".hoodie/" : ".hoodie/timeline/";
      assertTrue(Files.exists(dir.resolve(timeline + instant + ".compaction.requested")), "the plan stays");
    }
    assertFalse(Files.exists(dir.resolve(".hoodie/.temp/" + instant)));
  }

  @ParameterizedTest
  @ValueSource(ints = {6, 9})
  void crashWhileWritingTheSecondBaseFile(int version) {
    crashThenRerun(version, c -> c.startsWith("CREATE ") && c.endsWith("_<C>.parquet"), 2, true);
  }

  /** Version 9's completed file is {@code <C>_<completion>.commit}. */
  @ParameterizedTest
  @ValueSource(ints = {6, 9})
  void crashBeforeThePublish(int version) {
    crashThenRerun(version, c -> c.startsWith("CREATE_EXCLUSIVE ") && c.matches(".*/<C>(_\\d{17})?\\.commit"), 1,
        true);
  }

  @ParameterizedTest
  @ValueSource(ints = {6, 9})
  void crashRightAfterGoingInflight(int version) {
    crashThenRerun(version, c -> c.startsWith("CREATE ") && c.contains(".hoodie/.temp/<C>/"), 1, true);
  }
}
