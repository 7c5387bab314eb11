package dev.sluice.tools.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.CommitInfo;
import dev.sluice.api.WriteStatInfo;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Write amplification of Copy-on-Write upserts, and the scattered-upsert warning, on real tables. */
class CopyOnWriteHealthTest {
  private static final Map<String, String> THRESHOLDS = Map.of("sluice.health.rewritten.file.groups.min", "5",
      "sluice.health.changed.records.per.file.group.max", "10", "sluice.health.write.amplification.max", "20");

  @TempDir
  Path dir;

  @Test
  void scatteredUpsertsRewriteEveryFileGroupAndWarn() {
    Table t = HealthTables.create(dir, TableType.COPY_ON_WRITE, THRESHOLDS);
    String upsert = t.upsert(HealthTables.scattered(10).iterator()).instantTime();
    TableStats stats = TableHealth.of(t, Clock.systemUTC());

    CommitInfo md = HealthTables.metadata(t, upsert);
    CommitStats c = stats.commits().get(stats.commits().size() - 1);
    assertEquals(upsert, c.instantTime());
    long rewrites = md.stats().stream().filter(s -> !WriteStatInfo.NULL_COMMIT.equals(s.prevCommit())).count();
    assertEquals(HealthTables.GROUPS, rewrites, "every file group rewritten");
    assertEquals(rewrites, c.fileGroupsRewritten());
    assertEquals(HealthTables.GROUPS, c.updated());
    assertEquals(md.stats().stream().mapToLong(WriteStatInfo::totalWriteBytes).sum(), c.bytesWritten());
    assertEquals(md.stats().stream().mapToLong(WriteStatInfo::numWrites).sum(), c.recordsWritten());
    // bytes written over (each file's bytes per record × its changed records)
    double changed = 0;
    for (WriteStatInfo s : md.stats()) {
      changed += (double) s.totalWriteBytes() / s.numWrites() * s.numUpdateWrites();
    }
    assertEquals(md.stats().stream().mapToLong(WriteStatInfo::totalWriteBytes).sum() / changed, c.writeAmplification().getAsDouble(), 1e-9);
    assertEquals(HealthTables.PER_GROUP, c.writeAmplification().getAsDouble(), 1e-6,
        "one changed record per file: each file written is " + HealthTables.PER_GROUP + " times its change");
    assertEquals(HealthTables.PER_GROUP, c.recordAmplification().getAsDouble(), 1e-9);
    assertEquals(1.0, c.changedRecordsPerRewrittenFileGroup().getAsDouble(), 1e-9);

    List<Warning> w = stats.warnings();
    assertEquals(List.of(Warning.SCATTERED_UPSERTS), w.stream().map(Warning::code).toList(), w.toString());
    assertEquals(HealthTables.GROUPS, w.get(0).numbers().get("fileGroupsRewritten").longValue());
    assertEquals(c.writeAmplification().getAsDouble(), w.get(0).numbers().get("writeAmplification").doubleValue());
    assertEquals(1, w.get(0).numbers().get("commits").intValue());
  }

  @Test
  void clusteredUpsertsTouchOneFileGroupAndDoNotWarn() {
    Table t = HealthTables.create(dir, TableType.COPY_ON_WRITE, THRESHOLDS);
    String upsert = t.upsert(HealthTables.clustered(10).iterator()).instantTime();
    TableStats stats = TableHealth.of(t, Clock.systemUTC());
    CommitStats c = stats.commits().get(stats.commits().size() - 1);
    assertEquals(upsert, c.instantTime());
    assertEquals(1, c.fileGroupsRewritten());
    assertEquals(HealthTables.GROUPS, c.updated());
    assertTrue(stats.warnings().isEmpty(), stats.warnings().toString());
  }

  @Test
  void latestSlicesAndFileSizesMatchTheFilesOnDisk() {
    Table t = HealthTables.create(dir, TableType.COPY_ON_WRITE, Map.of("hoodie.parquet.small.file.limit", "1"));
    t.upsert(HealthTables.clustered(10).iterator());
    TableStats stats = TableHealth.of(t, Clock.systemUTC());
    assertEquals(HealthTables.GROUPS, stats.slices().size());
    List<Long> latest = stats.slices().stream().map(SliceStats::baseFileBytes).sorted().toList();
    long total = latest.stream().mapToLong(Long::longValue).sum();
    assertEquals(total, stats.baseFileSizes().totalBytes());
    assertEquals(latest.get(0), stats.baseFileSizes().min());
    assertEquals(latest.get(latest.size() - 1), stats.baseFileSizes().max());
    assertEquals(0, stats.baseFileSizes().smallFiles(), "limit 1 byte");
    for (SliceStats s : stats.slices()) {
      Map<String, Long> onDisk = HealthTables.files(dir, s.baseFile().orElseThrow());
      assertEquals(onDisk.get(s.baseFile().get()), s.baseFileBytes());
      assertEquals(HealthTables.PER_GROUP, s.baseRecords().getAsLong(), "records per base file, from its commit");
      assertEquals(0, s.logFiles());
      assertEquals(1.0, s.readAmplification().getAsDouble());
    }
    assertFalse(stats.readCost().logRecordsPerBaseRecord().orElse(0) > 0);
  }

  @Test
  void sizeDistributionUsesNearestRankPercentiles() {
    SizeDistribution d = SizeDistribution.of(List.of(10L, 1L, 9L, 2L, 8L, 3L, 7L, 4L, 6L, 5L), 4);
    assertEquals(new SizeDistribution(10, 55, 1, 5, 9, 10, 3, 4), d);
    assertEquals(new SizeDistribution(0, 0, 0, 0, 0, 0, 0, 4), SizeDistribution.of(List.of(), 4));
    assertEquals(7, SizeDistribution.of(List.of(7L), 0).p90());
  }
}
