package dev.sluice.internal.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InstantTest {
  private static final String TS = "20240102030405678";

  @Test
  void fileNamesOfEveryActionAndState() {
    // the table of names in the format reference (HoodieTimeline.make*FileName)
    String[][] expected = {
        {"commit", ".commit.requested", ".inflight", ".commit"},
        {"deltacommit", ".deltacommit.requested", ".deltacommit.inflight", ".deltacommit"},
        {"compaction", ".compaction.requested", ".compaction.inflight", ".commit"},
        {"logcompaction", ".logcompaction.requested", ".logcompaction.inflight", ".deltacommit"},
        {"clean", ".clean.requested", ".clean.inflight", ".clean"},
        {"rollback", ".rollback.requested", ".rollback.inflight", ".rollback"},
        {"replacecommit", ".replacecommit.requested", ".replacecommit.inflight", ".replacecommit"},
        {"restore", ".restore.requested", ".restore.inflight", ".restore"},
        {"indexing", ".indexing.requested", ".indexing.inflight", ".indexing"},
    };
    for (String[] row : expected) {
      Action a = Action.fromId(row[0]).orElseThrow();
      assertEquals(TS + row[1], Instant.requested(TS, a).fileName(), row[0]);
      assertEquals(TS + row[2], Instant.inflight(TS, a).fileName(), row[0]);
      assertEquals(TS + row[3], Instant.completed(TS, a).fileName(), row[0]);
    }
    assertEquals(TS + ".savepoint.inflight", Instant.inflight(TS, Action.SAVEPOINT).fileName());
    assertEquals(TS + ".savepoint", Instant.completed(TS, Action.SAVEPOINT).fileName());
    assertThrows(SluiceException.class, () -> Instant.requested(TS, Action.SAVEPOINT).fileName());
  }

  @Test
  void parseRoundTripsEveryStateFile() {
    List<Instant> all = new ArrayList<>();
    for (Action a : Action.values()) {
      for (State s : State.values()) {
        if (a == Action.SAVEPOINT && s == State.REQUESTED) {
          continue;
        }
        all.add(new Instant(TS, a, s));
      }
    }
    for (Instant i : all) {
      assertEquals(Optional.of(i), Instant.parse(i.fileName()), i.fileName());
    }
  }

  @Test
  void completedCompactionIsACommit() {
    assertEquals(Optional.of(new Instant(TS, Action.COMMIT, State.COMPLETED)), Instant.parse(TS + ".commit"));
    Instant inflight = Instant.inflight(TS, Action.COMPACTION);
    assertEquals(Instant.completed(TS, Action.COMMIT), inflight.toState(State.COMPLETED));
    assertEquals(Instant.completed(TS, Action.DELTACOMMIT), Instant.inflight(TS, Action.LOGCOMPACTION).toState(State.COMPLETED));
  }

  @Test
  void bareInflightIsACommit() {
    assertEquals(Optional.of(Instant.inflight(TS, Action.COMMIT)), Instant.parse(TS + ".inflight"));
  }

  @Test
  void nonInstantFilesDoNotParse() {
    for (String name : new String[] {"hoodie.properties", "hoodie.properties.backup", ".aux", ".temp", "archived",
        "metadata", "." + TS + ".commit.crc", TS + ".commit.crc", TS + ".compaction", TS + ".unknownaction",
        TS + ".savepoint.requested", TS + ".commit.inflight", "abc.commit", TS + ".schemacommit", ""}) {
      assertEquals(Optional.empty(), Instant.parse(name), name);
    }
  }

  @Test
  void parsesOldAndSuffixedTimes() {
    assertEquals(Optional.of(Instant.completed("20200101120000", Action.COMMIT)), Instant.parse("20200101120000.commit"));
    assertEquals(Optional.of(Instant.completed("00000000000000010", Action.DELTACOMMIT)),
        Instant.parse("00000000000000010.deltacommit"));
  }

  @Test
  void ordersByTimeThenComparableActionThenState() {
    Instant a = Instant.completed("001", Action.COMMIT);
    Instant b = Instant.requested("002", Action.COMMIT);
    Instant c = Instant.inflight("002", Action.COMMIT);
    Instant d = Instant.requested("002", Action.DELTACOMMIT);
    Instant clean = Instant.completed("002", Action.CLEAN);
    List<Instant> sorted = new ArrayList<>(List.of(d, c, b, a, clean));
    sorted.sort(null);
    assertEquals(List.of(a, clean, b, c, d), sorted);
    // a compaction sorts with commits: its requested state precedes the commit it completes as
    assertTrue(Instant.requested("003", Action.COMPACTION).compareTo(Instant.completed("003", Action.COMMIT)) < 0);
  }

  @Test
  void rejectsNonDigitTimes() {
    assertThrows(SluiceException.class, () -> Instant.completed("2024-01-01", Action.COMMIT));
  }
}
