package dev.sluice.internal.compact;

import dev.sluice.api.CompactionInfo;
import static dev.sluice.internal.compact.CompactFixture.round;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.internal.commit.FileSystemLockProvider;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One run of a compaction plan at a time: a second run would take the first one's inflight instant for a dead
 * attempt's and roll its output back. The run holds the plan's lock; a second run fails with a CONFLICT and leaves
 * the plan pending.
 */
class CompactionClaimTest {
  private static final Map<String, String> OCC = Map.of("hoodie.write.concurrency.mode", "optimistic_concurrency_control",
      "hoodie.write.lock.provider", "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider");

  @TempDir
  Path dir;

  private Table withPlan(Map<String, String> options) {
    Table t = CompactFixture.create(dir, options);
    t.insert(round(0, 20, 10, "r0").iterator());
    t.upsert(round(0, 5, 20, "r1").iterator());
    return t;
  }

  @Test
  void aSecondThreadRunningTheSamePlanIsRefusedWhileTheFirstHoldsIt() {
    Table t = withPlan(Map.of());
    String instant = t.compaction().scheduleNow().orElseThrow();
    Map<String, String> before = CompactFixture.snapshot(t);
    InstantLifecycle lifecycle = InstantLifecycle.withoutLock(t.storage(), t.location(), false);
    // this thread holds the plan as a running compaction would; another thread then tries to run it
    Throwable refused = lifecycle.exclusive("hold the plan", Instant.requested(instant, Action.COMPACTION), () -> {
      CompletableFuture<CompactionInfo> other = CompletableFuture.supplyAsync(() -> t.compaction().run(instant));
      return assertThrows(ExecutionException.class, other::get).getCause();
    });
    SluiceException e = assertInstanceOfSluice(refused);
    assertEquals(SluiceException.Kind.CONFLICT, e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains("Running compaction " + instant), e.getMessage());
    assertEquals(List.of(instant), t.compaction().pending(), "the plan is still pending");
    assertFalse(Files.exists(dir.resolve(".hoodie/" + instant + ".compaction.inflight")), "the refused run started nothing");

    CompactionInfo r = t.compaction().run(instant);
    assertEquals(instant, r.instantTime());
    assertTrue(t.compaction().pending().isEmpty());
    assertEquals(before, CompactFixture.snapshot(t));
  }

  @Test
  void withAFileSystemLockAnotherProcessHoldingThePlanBlocksTheRunAndTheLockFileGoesAfterwards() {
    Table t = withPlan(OCC);
    String instant = t.compaction().scheduleNow().orElseThrow();
    String lockName = "lock.compaction." + instant;
    Path lockFile = dir.resolve(".hoodie").resolve(lockName);
    // another process's run: the same lock file, taken through a provider of its own (its own token)
    FileSystemLockProvider otherProcess = new FileSystemLockProvider(t.storage(), TableLayout.metaFolder(t.location()),
        lockName, 0);
    assertTrue(otherProcess.tryLock());
    try {
      SluiceException e = assertThrows(SluiceException.class, () -> t.compaction().run(instant));
      assertEquals(SluiceException.Kind.CONFLICT, e.kind(), e.getMessage());
      assertTrue(e.getMessage().contains(lockName), e.getMessage());
      assertEquals(List.of(instant), t.compaction().pending());
    } finally {
      otherProcess.unlock();
    }
    assertFalse(Files.exists(lockFile));

    t.compaction().run(instant);
    assertTrue(t.compaction().pending().isEmpty());
    assertFalse(Files.exists(lockFile), "the run released the plan's lock");
    assertFalse(Files.exists(dir.resolve(".hoodie/lock")), "and the table lock of its publish");
  }

  private static SluiceException assertInstanceOfSluice(Throwable t) {
    assertTrue(t instanceof SluiceException, "a SluiceException, not " + t);
    return (SluiceException) t;
  }
}
