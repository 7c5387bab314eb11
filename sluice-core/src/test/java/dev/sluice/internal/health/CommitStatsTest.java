package dev.sluice.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.internal.timeline.WriteStat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The write amplification formula on hand-made write stats: a rewrite, a delete-only log block, a new file group. */
class CommitStatsTest {
  @Test
  void changedBytesAreEachFilesBytesPerRecordTimesItsChangedRecords() {
    WriteStat rewrite = WriteStat.builder().fileId("f1").partitionPath("p").prevCommit("001").numWrites(100)
        .numUpdateWrites(2).numDeletes(1).totalWriteBytes(1000).build();
    WriteStat deletesOnly = WriteStat.builder().fileId("f2").partitionPath("p").prevCommit("001").numWrites(0)
        .numDeletes(5).totalWriteBytes(200).logVersion(3).build();
    WriteStat created = WriteStat.builder().fileId("f3").partitionPath("p").numWrites(50).numInserts(50)
        .totalWriteBytes(500).build();
    CommitMetadata md = new CommitMetadata(Map.of("p", List.of(rewrite, deletesOnly, created)), false, Map.of(),
        WriteOperationType.UPSERT);
    CommitStats c = CommitStats.of("002", "deltacommit", md, false);
    // 1000/100 × 3 + 200 (nothing stored: all of it is the change) + 500/50 × 50
    assertEquals(730, c.changedRecordBytes());
    assertEquals(1700.0 / 730, c.writeAmplification().getAsDouble(), 1e-12);
    assertEquals(150.0 / 58, c.recordAmplification().getAsDouble(), 1e-12);
    assertEquals(150.0 / 2, c.hudiWriteAmplification().getAsDouble(), 1e-12);
    assertEquals(3, c.fileGroupsTouched());
    assertEquals(1, c.fileGroupsRewritten());
    assertEquals(1, c.fileGroupsCreated());
    assertEquals(1, c.logAppends());
    assertEquals(2, c.existingFileGroupsTouched());
    assertEquals(1000, c.rewrittenBytes());
    assertEquals(3, c.rewrittenChangedRecords());
    assertEquals(3.0, c.changedRecordsPerRewrittenFileGroup().getAsDouble());
  }

  @Test
  void nothingChangedMeansNoRatios() {
    CommitStats c = CommitStats.of("003", "commit", CommitMetadata.empty(), false);
    assertTrue(c.writeAmplification().isEmpty() && c.recordAmplification().isEmpty()
        && c.hudiWriteAmplification().isEmpty() && c.changedRecordsPerRewrittenFileGroup().isEmpty());
  }
}
