package dev.sluice.tools.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CommitInfo;
import dev.sluice.api.WriteStatInfo;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The write amplification formula on hand-made write stats: a rewrite, a delete-only log block, a new file group. */
class CommitStatsTest {
  @Test
  void changedBytesAreEachFilesBytesPerRecordTimesItsChangedRecords() {
    // (partition, file id, path, prevCommit, numWrites, numDeletes, numUpdateWrites, numInserts, bytes, log append)
    WriteStatInfo rewrite = new WriteStatInfo("p", "f1", Optional.empty(), "001", 100, 1, 2, 0, 1000, false);
    WriteStatInfo deletesOnly = new WriteStatInfo("p", "f2", Optional.empty(), "001", 0, 5, 0, 0, 200, true);
    WriteStatInfo created = new WriteStatInfo("p", "f3", Optional.empty(), WriteStatInfo.NULL_COMMIT, 50, 0, 0, 50, 500,
        false);
    CommitInfo md = new CommitInfo("UPSERT", false, Optional.empty(), List.of(rewrite, deletesOnly, created));
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
    CommitStats c = CommitStats.of("003", "commit", new CommitInfo("UNKNOWN", false, Optional.empty(), List.of()), false);
    assertTrue(c.writeAmplification().isEmpty() && c.recordAmplification().isEmpty()
        && c.hudiWriteAmplification().isEmpty() && c.changedRecordsPerRewrittenFileGroup().isEmpty());
  }
}
