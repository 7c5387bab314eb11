package dev.sluice.internal.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TimelineTest {
  private static Timeline of(Instant... files) {
    return Timeline.of(List.of(files));
  }

  @Test
  void keepsTheLatestStatePerInstant() {
    Timeline t = of(Instant.requested("001", Action.COMMIT), Instant.inflight("001", Action.COMMIT),
        Instant.completed("001", Action.COMMIT), Instant.requested("002", Action.DELTACOMMIT),
        Instant.inflight("002", Action.DELTACOMMIT));
    assertEquals(List.of(Instant.completed("001", Action.COMMIT), Instant.inflight("002", Action.DELTACOMMIT)),
        t.instants());
  }

  @Test
  void compactionStatesCollapseIntoTheCommit() {
    Timeline t = of(Instant.requested("005", Action.COMPACTION), Instant.inflight("005", Action.COMPACTION),
        Instant.completed("005", Action.COMMIT), Instant.requested("006", Action.COMPACTION));
    assertEquals(List.of(Instant.completed("005", Action.COMMIT), Instant.requested("006", Action.COMPACTION)),
        t.instants());
    assertTrue(t.isCompaction("005"));
    assertTrue(t.isCompaction("006"));
    assertFalse(t.isCompaction("007"));
    assertEquals(List.of(Instant.requested("006", Action.COMPACTION)), t.pendingCompactions());
    assertEquals(Optional.of(Instant.completed("005", Action.COMMIT)), t.lastCompletedCommit());
  }

  @Test
  void filtersByActionGroup() {
    Timeline t = of(Instant.completed("001", Action.COMMIT), Instant.completed("002", Action.CLEAN),
        Instant.completed("003", Action.DELTACOMMIT), Instant.requested("004", Action.COMPACTION),
        Instant.completed("005", Action.REPLACECOMMIT), Instant.completed("006", Action.ROLLBACK),
        Instant.inflight("007", Action.DELTACOMMIT));
    assertEquals(List.of("001", "003", "004", "005", "007"), times(t.writeTimeline()));
    assertEquals(List.of("001", "003", "005", "007"), times(t.commitsTimeline()));
    assertEquals(List.of("001", "002", "003", "005", "006"), times(t.completed()));
    assertEquals(List.of("001", "002", "003", "004", "005", "006"), times(t.completedAndPendingCompactions()));
    assertEquals(Optional.of("006"), t.lastCompleted().map(Instant::time));
    assertEquals(Optional.of("005"), t.lastCompletedCommit().map(Instant::time));
    assertEquals(List.of(Instant.inflight("007", Action.DELTACOMMIT)), t.inflightWrites());
  }

  @Test
  void inflightWritesIncludeRequestedOnes() {
    Timeline t = of(Instant.requested("001", Action.COMMIT), Instant.inflight("002", Action.REPLACECOMMIT),
        Instant.inflight("003", Action.CLEAN));
    assertEquals(List.of("001", "002"), t.inflightWrites().stream().map(Instant::time).toList());
    assertTrue(t.isInflight("001"));
    assertTrue(t.isInflight("003"));
    assertFalse(t.isCompleted("001"));
  }

  @Test
  void beforeStartMeansArchivedAndSkipsSavepoints() {
    Timeline t = of(Instant.completed("003", Action.SAVEPOINT), Instant.completed("003", Action.COMMIT),
        Instant.completed("010", Action.COMMIT), Instant.inflight("012", Action.COMMIT));
    assertEquals(Optional.of(Instant.completed("010", Action.COMMIT)), t.firstNonSavepoint());
    assertTrue(t.containsOrBeforeStart("002"), "archived");
    assertTrue(t.containsOrBeforeStart("003"), "completed");
    assertTrue(t.containsOrBeforeStart("005"), "older than the first non-savepoint instant");
    assertTrue(t.containsOrBeforeStart("010"));
    assertFalse(t.containsOrBeforeStart("011"));
    assertFalse(t.containsOrBeforeStart("012"), "inflight");
    assertFalse(Timeline.empty().containsOrBeforeStart("001"));
  }

  @Test
  void secondGranularityInstantsMatchTheirMillisForm() {
    Timeline t = of(Instant.completed("20200101120000", Action.COMMIT));
    assertTrue(t.isCompleted("20200101120000"));
    assertTrue(t.isCompleted("20200101120000999"));
    assertFalse(t.isCompleted("20200101120000123"));
  }

  @Test
  void asOfCutsTheTimeline() {
    Timeline t = of(Instant.completed("001", Action.COMMIT), Instant.completed("002", Action.COMMIT),
        Instant.completed("003", Action.COMMIT));
    assertEquals(List.of("001", "002"), times(t.asOf("002")));
    assertEquals(List.of("003"), times(t.after("002")));
    assertEquals(Optional.of(Instant.completed("002", Action.COMMIT)), t.find("002"));
    assertEquals(Optional.empty(), t.find("004"));
    assertEquals(Optional.of("001"), t.firstInstant().map(Instant::time));
  }

  private static List<String> times(Timeline t) {
    return t.instants().stream().map(Instant::time).toList();
  }
}
