package dev.sluice.tools.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.FileGroupKey;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.TimelineFixture;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compaction falling behind on Merge-on-Read tables: log files, delta commits, pending compactions. */
class MergeOnReadHealthTest {
  private static final int UPSERTS = 11;

  @TempDir
  Path dir;

  private Table morWithUpserts(Map<String, String> options) {
    return morWithUpserts(options, dev.sluice.api.TableSpec.DEFAULT_TABLE_VERSION);
  }

  private Table morWithUpserts(Map<String, String> options, int version) {
    Table t = HealthTables.create(dir, TableType.MERGE_ON_READ, options, version);
    for (int i = 0; i < UPSERTS; i++) {
      t.upsert(HealthTables.scattered(10 + i).iterator());
    }
    return t;
  }

  private static List<String> codes(TableStats s) {
    return s.warnings().stream().map(Warning::code).toList();
  }

  @Test
  void manyDeltaCommitsWithoutCompactionWarnThatCompactionStalled() {
    Table t = morWithUpserts(Map.of());
    TableStats stats = TableHealth.of(t, Clock.systemUTC());
    // the bulk insert is a delta commit too
    assertEquals(UPSERTS + 1, stats.deltaCommitsSinceLastCompaction());
    assertTrue(stats.lastCompaction().isEmpty());
    assertEquals(HealthTables.GROUPS, stats.slices().size());
    for (SliceStats s : stats.slices()) {
      Map<String, Long> logs = HealthTables.files(dir, "." + s.fileId() + "_");
      assertEquals(logs.size(), s.logFiles(), "log files of " + s.fileId());
      assertEquals(UPSERTS, s.logFiles());
      long logBytes = logs.values().stream().mapToLong(Long::longValue).sum();
      assertEquals(logBytes, s.logBytes());
      assertEquals(UPSERTS, s.deltaCommitsSinceBase());
      assertEquals(UPSERTS, s.logRecords(), "one updated row per upsert");
      assertEquals((double) (s.baseFileBytes() + logBytes) / s.baseFileBytes(), s.readAmplification().getAsDouble(), 1e-12);
      assertEquals((double) UPSERTS / HealthTables.PER_GROUP, s.logRecordsPerBaseRecord().getAsDouble(), 1e-12);
    }
    // thresholds: 2 × hoodie.compact.inline.max.delta.commits (5) = 10
    assertEquals(List.of(Warning.LOG_FILES, Warning.DELTA_COMMITS, Warning.NOT_SCHEDULED), codes(stats), stats.warnings()
        .toString());
    Warning notScheduled = stats.warnings().get(2);
    assertEquals(UPSERTS + 1, notScheduled.numbers().get("deltaCommits").intValue());
    assertEquals(HealthTables.GROUPS * UPSERTS, notScheduled.numbers().get("logFiles").intValue());
    assertEquals(10, notScheduled.numbers().get("threshold").intValue());
    assertEquals(HealthTables.GROUPS, stats.warnings().get(0).numbers().get("slices").intValue());

    CommitStats last = stats.commits().get(stats.commits().size() - 1);
    assertEquals(HealthTables.GROUPS, last.logAppends());
    assertEquals(0, last.fileGroupsRewritten());

    // a higher inline-compaction setting raises the derived thresholds past what the table has
    Table relaxed = dev.sluice.api.Tables.open(t.location(), t.options().with("hoodie.compact.inline.max.delta.commits",
        "10"));
    assertEquals(List.of(), codes(TableHealth.of(relaxed, Clock.systemUTC())));
  }

  @Test
  void agedPendingCompactionWarnsAndCountsAsScheduled() {
    // version 6: TimelineFixture plants the pending compaction as a version-6 timeline file
    Table t = morWithUpserts(Map.of(), 6);
    FileGroupId first = new FileGroupId("p0", TableHealth.of(t, Clock.systemUTC()).slices().get(0).fileId());
    String compaction = InstantTimes.newInstantTime();
    TimelineFixture.at(dir).instantFile(Instant.requested(compaction, Action.COMPACTION),
        TimelineFixture.compactionPlan(compaction, List.of(first)));
    ZoneId zone = ZoneId.systemDefault();
    java.time.Instant at = InstantTimes.toTime(compaction, zone);

    TableStats fresh = TableHealth.of(t, Clock.fixed(at.plus(Duration.ofMinutes(30)), ZoneOffset.UTC));
    assertEquals(1, fresh.pendingCompactions().size());
    PendingCompaction p = fresh.pendingCompactions().get(0);
    assertEquals(new PendingCompaction(compaction, "REQUESTED", List.of(new FileGroupKey("p0", first.fileId())), 30), p);
    assertTrue(!codes(fresh).contains(Warning.PENDING_COMPACTION_AGE) && !codes(fresh).contains(Warning.NOT_SCHEDULED),
        fresh.warnings().toString());
    // the group under compaction is read as its old slice plus the logs since
    SliceStats underCompaction = fresh.slices().stream().filter(s -> s.fileId().equals(first.fileId())).findFirst()
        .orElseThrow();
    assertEquals(compaction, underCompaction.pendingCompaction().orElseThrow());
    assertEquals(UPSERTS, underCompaction.logFiles());

    TableStats old = TableHealth.of(t, Clock.fixed(at.plus(Duration.ofMinutes(180)), ZoneOffset.UTC));
    Warning w = old.warnings().stream().filter(x -> x.code().equals(Warning.PENDING_COMPACTION_AGE)).findFirst()
        .orElseThrow(() -> new AssertionError(old.warnings().toString()));
    assertEquals(180, w.numbers().get("ageMinutes").longValue());
    assertEquals(60, w.numbers().get("limitMinutes").longValue());
    assertEquals(1, w.numbers().get("fileGroups").intValue());

    Table patient = dev.sluice.api.Tables.open(t.location(), t.options().with(
        "sluice.health.pending.compaction.max.age.minutes", "240"));
    assertTrue(TableHealth.of(patient, Clock.fixed(at.plus(Duration.ofMinutes(180)), ZoneOffset.UTC)).warnings().stream()
        .noneMatch(x -> x.code().equals(Warning.PENDING_COMPACTION_AGE)));
  }
}
