package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CompactionScheduling.Reason;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Why a compaction was or was not scheduled, as the scheduler decides it ({@link TableCompaction#attemptSchedule}). */
class CompactionSchedulingTest {
  @TempDir
  Path dir;

  private Table table(int version, Map<String, String> options) {
    java.util.Map<String, String> o = new java.util.HashMap<>(Map.of("hoodie.parquet.small.file.limit", "0"));
    o.putAll(options);
    return TripFixture.create(dir.resolve("t"), TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(version)
        .build(), o);
  }

  @ParameterizedTest
  @CsvSource({"6", "9"})
  void triggerNotReachedGivesTheDeltaCommitsAgainstTheLimit(int version) {
    Table t = table(version, Map.of("hoodie.compact.inline.max.delta.commits", "5"));
    t.insert(TripFixture.trips(0, 10, 2, 1).iterator());
    t.upsert(TripFixture.trips(0, 4, 2, 2).iterator());
    CompactionScheduling s = t.compaction().attemptSchedule(false);
    assertEquals(Reason.TRIGGER_NOT_REACHED, s.reason());
    assertEquals(Optional.empty(), s.instant());
    assertTrue(s.explanation().contains("2 of 5 delta commits since the first delta commit")
        && s.explanation().contains("hoodie.compact.inline.max.delta.commits=5")
        && s.explanation().contains("hoodie.compact.inline.trigger.strategy=NUM_COMMITS"), s.explanation());
    assertTrue(t.compaction().pending().isEmpty());

    CompactionScheduling forced = t.compaction().attemptSchedule(true);
    assertEquals(Reason.SCHEDULED, forced.reason());
    assertEquals(t.compaction().pending(), java.util.List.of(forced.instant().orElseThrow()));
    t.compaction().run(forced.instant().get());
    t.upsert(TripFixture.trips(0, 4, 2, 3).iterator());
    CompactionScheduling after = t.compaction().attemptSchedule(false);
    assertTrue(after.explanation().contains("1 of 5 delta commits since the last compaction " + forced.instant().get()),
        after.explanation());
  }

  @Test
  void timeTriggerGivesTheSeconds() {
    Table t = table(6, Map.of("hoodie.compact.inline.trigger.strategy", "TIME_ELAPSED",
        "hoodie.compact.inline.max.delta.seconds", "3600"));
    t.insert(TripFixture.trips(0, 10, 2, 1).iterator());
    CompactionScheduling s = t.compaction().attemptSchedule(false);
    assertEquals(Reason.TRIGGER_NOT_REACHED, s.reason());
    assertTrue(s.explanation().matches(".*\\d+ of 3600 seconds since the first delta commit.*"
        + "hoodie.compact.inline.max.delta.seconds=3600.*TIME_ELAPSED.*"), s.explanation());
  }

  @Test
  void noLogFilesIsNothingToCompact() {
    Table t = table(6, Map.of("hoodie.compact.inline.max.delta.commits", "1"));
    CompactionScheduling empty = t.compaction().attemptSchedule(false);
    assertEquals(Reason.NO_LOG_FILES, empty.reason());
    assertTrue(empty.explanation().contains("no delta commits"), empty.explanation());
    t.insert(TripFixture.trips(0, 10, 2, 1).iterator());
    CompactionScheduling s = t.compaction().attemptSchedule(false);
    assertEquals(Reason.NO_LOG_FILES, s.reason(), "the trigger fires, but inserts wrote base files only");
    assertTrue(s.explanation().contains("no file slice has log files"), s.explanation());
    assertEquals(Reason.NO_LOG_FILES, t.compaction().attemptSchedule(true).reason());
  }

  @Test
  void slicesAlreadyPlannedAreBusy() {
    Table t = table(6, Map.of());
    t.insert(TripFixture.trips(0, 10, 2, 1).iterator());
    t.upsert(TripFixture.trips(0, 4, 2, 2).iterator());
    assertTrue(t.compaction().attemptSchedule(true).scheduled());
    // right after the plan the latest slices (opened by it) have no log files yet
    assertEquals(Reason.NO_LOG_FILES, t.compaction().attemptSchedule(true).reason());
    // logs written into them while the plan is pending: their file groups are the plan's until it runs
    t.upsert(TripFixture.trips(0, 4, 2, 3).iterator());
    CompactionScheduling s = t.compaction().attemptSchedule(true);
    assertEquals(Reason.SLICES_BUSY, s.reason());
    assertTrue(s.explanation().contains("all 2 file slices with log files are in a pending compaction"),
        s.explanation());
  }
}
