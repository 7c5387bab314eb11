package dev.sluice.internal.compact;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.internal.compact.CompactFixture.round;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compaction run by writes: inline, scheduled inline and run elsewhere, and on the writer's background thread. */
class CompactionModesTest {
  @TempDir
  Path dir;

  private static List<Instant> completedCompactions(Table t) {
    return TableInternals.timeline(t).filter(i -> i.isCompleted() && i.action() == Action.COMMIT).instants();
  }

  @Test
  void inlineCompactionRunsAfterTheWriteThatFiresTheTrigger() {
    Table t = CompactFixture.create(dir, Map.of("hoodie.compact.inline", "true",
        "hoodie.compact.inline.max.delta.commits", "2"));
    CompactFixture.Model model = new CompactFixture.Model();
    List<GenericRecord> a = round(0, 20, 1, "a");
    t.insert(a.iterator());
    model.upsert(a);
    assertTrue(completedCompactions(t).isEmpty());
    List<GenericRecord> b = round(0, 8, 2, "b");
    String second = t.upsert(b.iterator()).instantTime();
    model.upsert(b);
    List<Instant> done = completedCompactions(t);
    assertEquals(1, done.size(), "the second delta commit fired the trigger");
    assertTrue(InstantTimesOrder.after(done.get(0).time(), second));
    assertTrue(t.compaction().pending().isEmpty());
    assertEquals(model.expected(), CompactFixture.snapshot(t));
    assertEquals(model.expected(), CompactFixture.readOptimized(t), "just compacted: base files are current");
    List<GenericRecord> c = round(4, 8, 3, "c");
    t.upsert(c.iterator());
    model.upsert(c);
    assertEquals(1, completedCompactions(t).size(), "one delta commit since the compaction");
    assertEquals(model.expected(), CompactFixture.snapshot(t));
  }

  @Test
  void theCleanerRemovesCompactedSlicesButNeverThoseAPendingCompactionReads() {
    Table t = CompactFixture.create(dir, Map.of("hoodie.clean.automatic", "true",
        "hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS", "hoodie.cleaner.fileversions.retained", "1"));
    CompactFixture.Model model = new CompactFixture.Model();
    List<GenericRecord> a = round(0, 20, 1, "a");
    t.insert(a.iterator());
    model.upsert(a);
    List<GenericRecord> b = round(0, 8, 2, "b");
    t.upsert(b.iterator());
    model.upsert(b);
    List<String> before = CompactFixture.baseFiles(dir);
    String c = t.compaction().scheduleNow().orElseThrow();
    List<GenericRecord> during = round(2, 8, 3, "during");
    t.upsert(during.iterator());
    model.upsert(during);
    assertTrue(CompactFixture.baseFiles(dir).containsAll(before), "the pending compaction's input is kept");
    assertEquals(model.expected(), CompactFixture.snapshot(t));
    t.compaction().run(c);
    List<GenericRecord> after = round(4, 8, 4, "after");
    t.upsert(after.iterator());
    model.upsert(after);
    List<String> now = CompactFixture.baseFiles(dir);
    assertTrue(now.stream().noneMatch(before::contains), "compacted slices were cleaned: " + now);
    assertTrue(now.stream().allMatch(p -> p.endsWith("_" + c + ".parquet")), now.toString());
    assertEquals(model.expected(), CompactFixture.snapshot(t));
    assertEquals(model.expected().keySet(), CompactFixture.readOptimized(t).keySet());
  }

  @Test
  void scheduleInlineLeavesThePlanForAnotherRunner() {
    Table t = CompactFixture.create(dir, Map.of("hoodie.compact.schedule.inline", "true",
        "hoodie.compact.inline.max.delta.commits", "2"));
    CompactFixture.Model model = new CompactFixture.Model();
    List<GenericRecord> a = round(0, 20, 1, "a");
    t.insert(a.iterator());
    model.upsert(a);
    List<GenericRecord> b = round(0, 8, 2, "b");
    t.upsert(b.iterator());
    model.upsert(b);
    assertEquals(1, t.compaction().pending().size());
    assertTrue(completedCompactions(t).isEmpty());
    List<CompactionResult> ran = TableInternals.compaction(t).runPending();
    assertEquals(1, ran.size());
    assertEquals(model.expected(), CompactFixture.snapshot(t));
    assertEquals(model.expected(), CompactFixture.readOptimized(t));
  }

  @Test
  void asyncCompactionRunsOnTheWritersBackgroundThreadWhileWritesGoOn() {
    CompactFixture.Model model = new CompactFixture.Model();
    dev.sluice.api.TableCompaction.BackgroundCompactor service;
    try (Table t = CompactFixture.create(dir, Map.of("sluice.compact.async", "true",
        "hoodie.compact.inline.max.delta.commits", "2"))) {
      List<GenericRecord> a = round(0, 30, 1, "a");
      t.insert(a.iterator());
      model.upsert(a);
      for (int i = 0; i < 8; i++) {
        List<GenericRecord> u = round((i * 7) % 30, 10, 10 + i, "u" + i);
        t.upsert(u.iterator());
        model.upsert(u);
        assertEquals(model.expected(), CompactFixture.snapshot(t), "after write " + i);
      }
      service = t.compactor().orElseThrow();
      assertTrue(service.drain(Duration.ofSeconds(60)));
      assertEquals(java.util.Optional.empty(), service.lastFailure());
      assertTrue(service.completed() >= 1, "the background thread compacted");
      assertTrue(t.compaction().pending().isEmpty());
      assertEquals(service.completed(), completedCompactions(t).size());
      assertEquals(model.expected(), CompactFixture.snapshot(t));
    }
    assertFalse(service.isRunning(), "closing the table stopped the compactor");
  }

  /** Instant times compare as strings. */
  private static final class InstantTimesOrder {
    static boolean after(String a, String b) {
      return a.compareTo(b) > 0;
    }
  }
}
