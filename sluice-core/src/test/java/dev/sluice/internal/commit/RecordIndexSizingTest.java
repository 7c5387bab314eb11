package dev.sluice.internal.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The record index's shard count as Hudi 0.15 estimates it at the bootstrap (the interop test
 * {@code RecordIndexShardCountInteropTest} holds Sluice's count against the Java client's on a real table).
 */
class RecordIndexSizingTest {

  @Test
  void theDefaultsGiveTheMinimumUntilTwiceTheKeysOverflowTenShardsOfOneGib() {
    RecordIndexSizing d = CommitSettings.from(Config.empty()).recordIndexSizing();
    assertEquals(RecordIndexSizing.defaults(), d);
    assertEquals(new RecordIndexSizing(10, 10_000, 1 << 30, 2.0f), d);
    // one shard holds 2^30 / 48 = 22,369,621 entries; 2 x 100M records / that = 8 shards: the minimum wins
    assertEquals(10, d.fileGroups(0));
    assertEquals(10, d.fileGroups(100_000_000));
    // 2 x 150M / 22,369,621 = 13.4: rounded down
    assertEquals(13, d.fileGroups(150_000_000));
    assertEquals(10_000, d.fileGroups(1L << 40), "at most the maximum");
  }

  @Test
  void theEstimateFollowsTheConfiguredKeys() {
    CommitSettings s = CommitSettings.from(Config.of(Map.of("hoodie.metadata.record.index.min.filegroup.count", "2",
        "hoodie.metadata.record.index.max.filegroup.count", "50", "hoodie.metadata.record.index.max.filegroup.size",
        "960", "hoodie.metadata.record.index.growth.factor", "1.5")));
    RecordIndexSizing sizing = s.recordIndexSizing();
    // 960 bytes hold 20 entries: ceil(90 x 1.5) = 135 entries need 6 shards (135 / 20, rounded down)
    assertEquals(6, sizing.fileGroups(90));
    assertEquals(2, sizing.fileGroups(26), "ceil(39) / 20 = 1: the minimum");
    assertEquals(2, sizing.fileGroups(27), "ceil(40.5) / 20 = 2: the minimum itself");
    assertEquals(3, sizing.fileGroups(40), "60 / 20 = 3");
    assertEquals(50, sizing.fileGroups(1_000_000), "the maximum");
    // min == max: fixed, whatever the count
    assertEquals(4, new RecordIndexSizing(4, 4, 960, 1.5f).fileGroups(1_000_000));
    // the record count is multiplied in float, as Hudi does: 2^24 + 1 keys count as 2^24
    assertEquals(16_777_216, new RecordIndexSizing(1, 20_000_000, 48, 1.0f).fileGroups(16_777_217));
  }

  @Test
  void settingsThatCannotSizeAnIndexAreRefusedNamingTheKey() {
    assertTrue(message(new RecordIndexSizing(0, 10, 1 << 30, 2f)).contains("min.filegroup.count"));
    assertTrue(message(new RecordIndexSizing(10, 10_001, 1 << 30, 2f)).contains("max.filegroup.count"));
    assertTrue(message(new RecordIndexSizing(10, 5, 1 << 30, 2f)).contains("max.filegroup.count"));
    assertTrue(message(new RecordIndexSizing(10, 20, 47, 2f)).contains("max.filegroup.size"));
    assertTrue(message(new RecordIndexSizing(10, 20, 48, 0f)).contains("growth.factor"));
    assertEquals(RecordIndexSizing.defaults(), RecordIndexSizing.defaults().checked());
  }

  private static String message(RecordIndexSizing sizing) {
    SluiceException e = assertThrows(SluiceException.class, sizing::checked);
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    return e.getMessage();
  }
}
