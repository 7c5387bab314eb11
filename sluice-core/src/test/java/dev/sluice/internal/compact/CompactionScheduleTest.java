package dev.sluice.internal.compact;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.internal.compact.CompactFixture.round;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.fsview.FileSlice;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When a compaction is scheduled (triggers) and which slices its plan takes (strategies). */
class CompactionScheduleTest {
  @TempDir
  Path dir;

  private static Table reopen(Table t, Map<String, String> options) {
    Map<String, String> o = new HashMap<>(CompactFixture.BASE);
    o.putAll(options);
    return Tables.open(t.location(), Config.of(o));
  }

  @Test
  void numCommitsCountsDeltaCommitsSinceTheLastCompaction() {
    Table t = CompactFixture.create(dir, Map.of("hoodie.compact.inline.max.delta.commits", "3"));
    t.insert(round(0, 10, 1, "a").iterator());
    t.upsert(round(0, 4, 2, "b").iterator());
    assertTrue(t.compaction().schedule().isEmpty(), "2 delta commits < 3");
    t.upsert(round(0, 4, 3, "c").iterator());
    String c = t.compaction().schedule().orElseThrow();
    t.compaction().run(c);
    t.upsert(round(0, 4, 4, "d").iterator());
    t.upsert(round(0, 4, 5, "e").iterator());
    assertTrue(t.compaction().schedule().isEmpty(), "2 delta commits since the compaction");
    t.upsert(round(0, 4, 6, "f").iterator());
    assertTrue(t.compaction().schedule().isPresent());
  }

  @Test
  void timeTriggersCountSecondsSinceTheFirstDeltaCommit() {
    Table t = CompactFixture.create(dir, Map.of());
    t.insert(round(0, 10, 1, "a").iterator());
    t.upsert(round(0, 4, 2, "b").iterator());
    Map<String, String> hour = Map.of("hoodie.compact.inline.max.delta.seconds", "3600",
        "hoodie.compact.inline.max.delta.commits", "1");
    assertTrue(reopen(t, with(hour, "TIME_ELAPSED")).compaction().schedule().isEmpty());
    assertTrue(reopen(t, with(hour, "NUM_AND_TIME")).compaction().schedule().isEmpty());
    assertTrue(reopen(t, with(Map.of("hoodie.compact.inline.max.delta.seconds", "0"), "TIME_ELAPSED"))
        .compaction().schedule().isPresent(), "0 seconds have always elapsed");
  }

  @Test
  void numOrTimeFiresOnEither() {
    Table t = CompactFixture.create(dir, Map.of());
    t.insert(round(0, 10, 1, "a").iterator());
    t.upsert(round(0, 4, 2, "b").iterator());
    Map<String, String> o = Map.of("hoodie.compact.inline.max.delta.seconds", "3600",
        "hoodie.compact.inline.max.delta.commits", "2");
    assertTrue(reopen(t, with(o, "NUM_OR_TIME")).compaction().schedule().isPresent());
  }

  @Test
  void badSettingsAreRefused() {
    Table t = CompactFixture.create(dir, Map.of());
    SluiceException e = assertThrows(SluiceException.class,
        () -> reopen(t, Map.of("hoodie.compact.inline.trigger.strategy", "SOMETIMES")).compaction());
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    assertThrows(SluiceException.class,
        () -> reopen(t, Map.of("hoodie.compaction.strategy", "com.example.Mine")).compaction());
    assertThrows(SluiceException.class,
        () -> reopen(t, Map.of("hoodie.compact.inline", "true", "sluice.compact.async", "true")).compaction());
  }

  /** Groups a (ids 0..9) get three log files each, groups b (ids 100..109) one small one each. */
  private Table unevenLogs() {
    Table t = CompactFixture.create(dir, Map.of());
    t.insert(round(0, 10, 1, "a").iterator());
    t.insert(round(100, 10, 1, "b").iterator());
    for (int i = 0; i < 3; i++) {
      t.upsert(round(0, 10, 10 + i, "a" + i).iterator());
    }
    t.upsert(round(100, 2, 20, "b").iterator());
    return t;
  }

  private static Set<String> groupsWithLogs(Table t, int minLogs) {
    return CompactFixture.latestSlices(t).stream().filter(s -> s.logFiles().size() >= minLogs && minLogs > 0)
        .map(FileSlice::fileId).collect(Collectors.toSet());
  }

  private static Set<String> planned(Table t, String instant) {
    return TableInternals.compaction(t).plan(instant).operations().stream().map(CompactionOperation::fileId)
        .collect(Collectors.toSet());
  }

  @Test
  void logFileNumStrategyTakesSlicesWithEnoughLogFilesMostFirst() {
    Table t = unevenLogs();
    Set<String> many = groupsWithLogs(t, 3);
    Table s = reopen(t, Map.of("hoodie.compaction.strategy", "LogFileNumBasedCompactionStrategy",
        "hoodie.compaction.logfile.num.threshold", "2"));
    String c = s.compaction().scheduleNow().orElseThrow();
    assertEquals(many, planned(t, c));
    assertEquals(2, planned(t, c).size());
  }

  @Test
  void logFileSizeStrategyOrdersByLogBytesAndStopsAtTheIoBudget() {
    Table t = unevenLogs();
    Set<String> many = groupsWithLogs(t, 3);
    Table all = reopen(t, Map.of());
    String c = all.compaction().scheduleNow().orElseThrow();
    List<CompactionOperation> ops = TableInternals.compaction(t).plan(c).operations();
    assertEquals(4, ops.size(), "default: every slice with logs (the budget is 500 GiB)");
    for (int i = 1; i < ops.size(); i++) {
      assertTrue(ops.get(i - 1).metric(CompactionOperation.TOTAL_LOG_FILES_SIZE)
          >= ops.get(i).metric(CompactionOperation.TOTAL_LOG_FILES_SIZE), "largest logs first");
    }
    assertEquals(many, Set.of(ops.get(0).fileId(), ops.get(1).fileId()));
  }

  @Test
  void logFileSizeThresholdKeepsSlicesWithEnoughLogBytes() {
    Table t = unevenLogs();
    long smallest = CompactFixture.latestSlices(t).stream().filter(s -> s.logFiles().size() == 3)
        .mapToLong(s -> s.logFiles().stream().mapToLong(l -> l.size()).sum()).min().orElseThrow();
    Set<String> many = groupsWithLogs(t, 3);
    Table big = reopen(t, Map.of("hoodie.compaction.logfile.size.threshold", Long.toString(smallest)));
    String c = big.compaction().scheduleNow().orElseThrow();
    assertEquals(many, planned(t, c));
  }

  @Test
  void zeroIoBudgetTakesOneSlice() {
    Table t = unevenLogs();
    String c = reopen(t, Map.of("hoodie.compaction.target.io", "0")).compaction().scheduleNow().orElseThrow();
    assertEquals(1, planned(t, c).size(), "the slice that spends the budget is still taken");
  }

  @Test
  void unboundedTakesEverySliceWithLogsAndPendingGroupsAreSkipped() {
    Table t = unevenLogs();
    Table u = reopen(t, Map.of("hoodie.compaction.strategy",
        "org.apache.hudi.table.action.compact.strategy.UnBoundedCompactionStrategy",
        "hoodie.compaction.target.io", "0"));
    String c = reopen(t, Map.of("hoodie.compaction.target.io", "0")).compaction().scheduleNow().orElseThrow();
    Set<String> first = planned(t, c);
    String c2 = u.compaction().scheduleNow().orElseThrow();
    Set<String> second = planned(t, c2);
    assertEquals(3, second.size(), "every group with logs but the one already planned");
    assertTrue(second.stream().noneMatch(first::contains));
    t.compaction().runPending();
    assertTrue(t.compaction().pending().isEmpty());
  }

  private static Map<String, String> with(Map<String, String> o, String trigger) {
    Map<String, String> m = new HashMap<>(o);
    m.put("hoodie.compact.inline.trigger.strategy", trigger);
    return m;
  }
}
