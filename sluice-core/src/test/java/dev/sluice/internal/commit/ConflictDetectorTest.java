package dev.sluice.internal.commit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineFixture;
import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.internal.timeline.WriteStat;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConflictDetectorTest {
  private static final FileGroupId F = new FileGroupId("p0", "f-0");
  private static final FileGroupId G = new FileGroupId("p0", "g-0");
  private static final Instant CURRENT = Instant.inflight("20240101000000050", Action.COMMIT);

  @TempDir
  Path dir;

  private static CommitMetadata wrote(WriteOperationType op, FileGroupId... groups) {
    List<WriteStat> stats = java.util.Arrays.stream(groups).map(g -> WriteStat.builder().fileId(g.fileId())
        .partitionPath(g.partitionPath()).path(g.partitionPath() + "/" + g.fileId() + "_0-0-0_1.parquet").build()).toList();
    return new CommitMetadata(CommitMetadata.byPartition(stats), op == WriteOperationType.COMPACT, Map.of(), op);
  }

  private void check(TimelineFixture fx, Optional<String> lastCompleted, Set<String> pendingAtStart, CommitMetadata ours) {
    new ConflictDetector(fx.storage(), fx.basePath()).check(fx.timeline(), CURRENT, lastCompleted, pendingAtStart, ours);
  }

  @Test
  void aCommitThatCompletedDuringTheWriteOnTheSameFileGroupConflicts() {
    TimelineFixture fx = TimelineFixture.at(dir).completedCommit("20240101000000010", wrote(WriteOperationType.INSERT, F, G))
        .completedCommit("20240101000000060", wrote(WriteOperationType.UPSERT, F));
    SluiceException e = assertThrows(SluiceException.class,
        () -> check(fx, Optional.of("20240101000000010"), Set.of(), wrote(WriteOperationType.UPSERT, F)));
    assertEquals(SluiceException.Kind.CONFLICT, e.kind());
    assertTrue(e.getMessage().contains("20240101000000060") && e.getMessage().contains("f-0")
        && e.getMessage().contains("'p0'") && e.getMessage().contains(CURRENT.time()), e.getMessage());
    assertDoesNotThrow(() -> check(fx, Optional.of("20240101000000010"), Set.of(), wrote(WriteOperationType.UPSERT, G)),
        "another file group");
    assertDoesNotThrow(() -> check(fx, Optional.of("20240101000000060"), Set.of(), wrote(WriteOperationType.UPSERT, F)),
        "a commit the writer had seen when it started is no conflict");
  }

  @Test
  void aWritePendingAtTheStartThatCompletedMeanwhileIsChecked() {
    TimelineFixture fx = TimelineFixture.at(dir).completedCommit("20240101000000010", wrote(WriteOperationType.INSERT, F))
        .completedCommit("20240101000000005", wrote(WriteOperationType.UPSERT, F));
    assertThrows(SluiceException.class, () -> check(fx, Optional.of("20240101000000010"), Set.of("20240101000000005"),
        wrote(WriteOperationType.UPSERT, F)));
    assertDoesNotThrow(() -> check(fx, Optional.of("20240101000000010"), Set.of(), wrote(WriteOperationType.UPSERT, F)));
  }

  @Test
  void compactionsConflictOnlyWhenScheduledAfterTheWrite() {
    TimelineFixture fx = TimelineFixture.at(dir).completedCommit("20240101000000010", wrote(WriteOperationType.INSERT, F))
        .requestedCompaction("20240101000000020", F)
        .completedCommit("20240101000000020", wrote(WriteOperationType.COMPACT, F));
    assertDoesNotThrow(() -> check(fx, Optional.of("20240101000000010"), Set.of("20240101000000020"),
        wrote(WriteOperationType.UPSERT, F)), "an older compaction: the write's logs went to its new slice");
    fx.requestedCompaction("20240101000000070", G);
    SluiceException e = assertThrows(SluiceException.class, () -> check(fx, Optional.of("20240101000000020"), Set.of(),
        wrote(WriteOperationType.UPSERT, G)));
    assertTrue(e.getMessage().contains("compaction scheduled") && e.getMessage().contains("g-0"), e.getMessage());
    fx.requestedCompaction("20240101000000030", F);
    assertDoesNotThrow(() -> check(fx, Optional.of("20240101000000020"), Set.of(), wrote(WriteOperationType.UPSERT, F)),
        "a pending compaction older than the write");
  }

  @Test
  void aRestoreWhileTheWriteRanConflicts() {
    TimelineFixture fx = TimelineFixture.at(dir).completedCommit("20240101000000010", wrote(WriteOperationType.INSERT, F));
    fx.instantFile(Instant.requested("20240101000000080", Action.RESTORE), new byte[0])
        .instantFile(Instant.inflight("20240101000000080", Action.RESTORE), new byte[0])
        .instantFile(Instant.completed("20240101000000080", Action.RESTORE), new byte[0]);
    SluiceException e = assertThrows(SluiceException.class, () -> check(fx, Optional.of("20240101000000010"), Set.of(),
        wrote(WriteOperationType.UPSERT, G)));
    assertTrue(e.getMessage().contains("restored"), e.getMessage());
  }
}
