package dev.sluice.internal.fsview;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineLayout;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Which slice a log file joins: by its name (version 6), or by its delta commit's completion time (versions 8 and
 * 9, {@code HoodieFileGroup.getBaseInstantTime}).
 */
class LogPlacementTest {

  private static final TimelineLayout V9 = TimelineLayout.of(TableConfig.of(Map.of(TableConfig.NAME, "t",
      TableConfig.VERSION, "9")));

  // 100 insert (done at 101); 200 deltacommit (done at 450); 300 compaction (done at 400); 500 running deltacommit
  private static final Timeline TIMELINE = Timeline.of(V9, List.of(
      Instant.completed("100", Action.COMMIT), Instant.completed("200", Action.DELTACOMMIT),
      Instant.requested("300", Action.COMPACTION), Instant.completed("300", Action.COMMIT),
      Instant.inflight("500", Action.DELTACOMMIT)),
      Map.of("100", "101", "200", "450", "300", "400"));

  private static LogFile log(String deltaCommit) {
    String name = ".f1_" + deltaCommit + ".log.1_0-0-0";
    return new LogFile("/t/p/" + name, name, "f1", deltaCommit, 1, "0-0-0", 10);
  }

  private static NavigableSet<String> slices(String... baseInstants) {
    return new TreeSet<>(List.of(baseInstants));
  }

  @Test
  void version9LogsJoinTheLatestSliceNotAfterTheirCompletion() {
    // the archive knows 090 (completed at 150, after the base instant 100 was requested) and 095
    LogPlacement placement = LogPlacement.of(TIMELINE, () -> Map.of("090", "150", "095", "096"));
    // requested before the compaction, completed after it: the compaction's slice
    assertEquals(Optional.of("300"), placement.sliceOf(log("200"), slices("100", "300")));
    // completed before the compaction: the slice before it
    Timeline early = Timeline.of(V9, TIMELINE.instants(), Map.of("100", "101", "200", "250", "300", "400"));
    assertEquals(Optional.of("100"), LogPlacement.of(early, Map::of).sliceOf(log("200"), slices("100", "300")));
    // no slice yet, or none at or before the completion: a slice of its own
    assertEquals(Optional.of("200"), placement.sliceOf(log("200"), slices()));
    assertEquals(Optional.of("200"), placement.sliceOf(log("200"), slices("460")));
    // a delta commit that did not complete is not seen
    assertEquals(Optional.empty(), placement.sliceOf(log("500"), slices("100", "300")));
    assertEquals(Optional.empty(), placement.sliceOf(log("600"), slices("100", "300")));
    // older than the active timeline (archived): committed, placed by the completion time the archive gives it, not
    // by its requested time
    assertEquals(Optional.of("100"), placement.sliceOf(log("090"), slices("050", "100")));
    assertEquals(Optional.of("050"), placement.sliceOf(log("095"), slices("050", "100")));
    // archived but not in the archive: the latest slice, as Hudi 1.x places a log without a completion time
    assertEquals(Optional.of("100"), placement.sliceOf(log("080"), slices("050", "100")));
  }

  @Test
  void version6LogsJoinTheSliceTheirNameSays() {
    Timeline v6 = Timeline.of(TIMELINE.instants());
    assertEquals(Optional.of("200"), LogPlacement.of(v6, Map::of).sliceOf(log("200"), slices("100", "300")));
    assertEquals(Optional.of("500"), LogPlacement.of(v6, Map::of).sliceOf(log("500"), slices("100", "300")));
  }
}
