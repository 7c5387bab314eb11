package dev.sluice.internal.mdt.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.LocalStorage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules a version-8/9 table's metadata table is read by (Hudi 1.x's), next to the version-6 ones (Hudi 0.15's):
 * which deltacommits are valid, where slices are cut, and when Sluice finds the metadata table behind.
 */
class TrustRulesTest {
  private static final TimelineLayout V9 = TimelineLayout.of(TableConfig.of(Map.of(TableConfig.NAME, "t",
      TableConfig.VERSION, "9")));
  private static final String INIT = "00000000000000000";

  @TempDir
  Path dir;

  private TimelineStore store() {
    return new TimelineStore(new LocalStorage(), dir.toString(), V9);
  }

  @Test
  void theLayoutChoosesTheRules() {
    assertInstanceOf(TrustRules.Hudi1.class, TrustRules.of(Timeline.of(V9, List.of(), Map.of())));
    assertInstanceOf(TrustRules.Hudi015.class, TrustRules.of(Timeline.of(List.of())));
  }

  @Test
  void hudi1TrustsEveryCompletedDeltacommitButThoseOfPendingDataInstants() {
    // data: 100 completed, 200 failed after its metadata deltacommit completed, 300 archived away (no file left)
    Timeline data = Timeline.of(V9, List.of(Instant.completed("20260101000000100", Action.DELTACOMMIT),
        Instant.inflight("20260101000000200", Action.DELTACOMMIT)),
        Map.of("20260101000000100", "20260101000000150"));
    Timeline metadata = Timeline.of(V9, List.of(Instant.completed(INIT, Action.DELTACOMMIT),
        Instant.completed("20260101000000050", Action.DELTACOMMIT),
        Instant.completed("20260101000000100", Action.DELTACOMMIT),
        Instant.completed("20260101000000200", Action.DELTACOMMIT),
        Instant.completed("20260101000000300", Action.DELTACOMMIT),
        Instant.completed("20260101000000400", Action.COMMIT)),
        Map.of());
    Set<String> hudi1 = ValidInstants.ofHudi1(data, store(), metadata);
    assertEquals(Set.of(INIT, "20260101000000050", "20260101000000100", "20260101000000300"), hudi1,
        "a compaction has no log blocks and is not in the set; the pending data instant's deltacommit is left out");
    // Hudi 0.15 trusts only deltacommits of completed data instants (and its own suffixed ones)
    Set<String> hudi015 = ValidInstants.of(data, store(), metadata);
    assertFalse(hudi015.contains("20260101000000300"));
    assertFalse(hudi015.contains("20260101000000200"));
  }

  @Test
  void hudi1CutsSlicesAtAPendingCompactionAfterTheLatestCompletedInstant() {
    Timeline metadata = Timeline.of(V9, List.of(Instant.completed("20260101000000100", Action.DELTACOMMIT),
        Instant.requested("20260101000000200", Action.COMPACTION),
        Instant.inflight("20260101000000300", Action.DELTACOMMIT)), Map.of());
    assertEquals(Optional.of("20260101000000200"), new TrustRules.Hudi1().sliceCut(metadata),
        "deltacommits completed after the compaction was planned join its slice and must stay visible");
    assertEquals(Optional.of("20260101000000100"), new TrustRules.Hudi015().sliceCut(metadata));
    assertEquals(Optional.empty(), new TrustRules.Hudi1().sliceCut(Timeline.of(V9,
        List.of(Instant.requested("20260101000000200", Action.COMPACTION)), Map.of())), "nothing completed yet");
  }

  @Test
  void hudi1InitializationCoversTheDataInstantsCompletedBeforeIt() {
    // commit 100 completed (at 110) before the metadata table was initialized (completed at 120); 130 after it
    Timeline metadata = Timeline.of(V9, List.of(Instant.completed(INIT, Action.DELTACOMMIT),
        Instant.completed("20260101000000130", Action.DELTACOMMIT)),
        Map.of(INIT, "20260101000000120", "20260101000000130", "20260101000000135"));
    Timeline data = Timeline.of(V9, List.of(Instant.completed("20260101000000100", Action.COMMIT),
        Instant.completed("20260101000000130", Action.COMMIT)),
        Map.of("20260101000000100", "20260101000000110", "20260101000000130", "20260101000000136"));
    TrustRules rules = new TrustRules.Hudi1();
    assertEquals(Optional.empty(), rules.unmirrored(data, metadata));

    Timeline later = Timeline.of(V9, List.of(Instant.completed("20260101000000100", Action.COMMIT),
        Instant.completed("20260101000000130", Action.COMMIT), Instant.completed("20260101000000140", Action.CLEAN)),
        Map.of("20260101000000100", "20260101000000110", "20260101000000130", "20260101000000136",
            "20260101000000140", "20260101000000141"));
    assertEquals(Optional.of(Instant.completed("20260101000000140", Action.CLEAN)), rules.unmirrored(later, metadata),
        "a clean after the initialization needs its deltacommit");
  }

  @Test
  void hudi1NeedsNoDeltacommitForARollbackAndASyncAfterARestore() {
    Timeline metadata = Timeline.of(V9, List.of(Instant.completed(INIT, Action.DELTACOMMIT),
        Instant.completed("20260101000000100", Action.DELTACOMMIT),
        Instant.completed("20260101000000300", Action.ROLLBACK)),
        Map.of(INIT, "20260101000000050", "20260101000000100", "20260101000000101"));
    Map<String, String> completions = Map.of("20260101000000100", "20260101000000102",
        "20260101000000300", "20260101000000301", "20260101000000400", "20260101000000401");
    Timeline rolledBack = Timeline.of(V9, List.of(Instant.completed("20260101000000100", Action.COMMIT),
        Instant.completed("20260101000000300", Action.ROLLBACK)), completions);
    TrustRules rules = new TrustRules.Hudi1();
    assertEquals(Optional.empty(), rules.unmirrored(rolledBack, metadata),
        "Hudi 1.x rolls back the failed write's metadata deltacommit instead of adding one");

    Timeline restored = Timeline.of(V9, List.of(Instant.completed("20260101000000100", Action.COMMIT),
        Instant.completed("20260101000000400", Action.RESTORE)), completions);
    assertTrue(rules.unmirrored(restored, metadata).isPresent(), "a restore without its sync deltacommit");
    Timeline synced = Timeline.of(V9, List.of(Instant.completed(INIT, Action.DELTACOMMIT),
        Instant.completed("20260101000000100", Action.DELTACOMMIT),
        Instant.completed("20260101000000450", Action.DELTACOMMIT)),
        Map.of(INIT, "20260101000000050", "20260101000000100", "20260101000000101"));
    assertEquals(Optional.empty(), rules.unmirrored(restored, synced), "the sync deltacommit has a new, later time");
  }

  @Test
  void aPartitionedRecordIndexFileGroupNamesItsDataPartition() {
    assertEquals("2026/01", MetadataTableReader.dataPartitionOf("record-index-2026%2F01-0003-0"));
    assertEquals("p_1", MetadataTableReader.dataPartitionOf("record-index-p%5F1-0000-0"));
  }
}
