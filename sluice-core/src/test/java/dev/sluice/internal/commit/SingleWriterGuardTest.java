package dev.sluice.internal.commit;

import static dev.sluice.api.TripFixture.trip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.internal.service.TableInternals;
import dev.sluice.internal.timeline.Instant;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A single-writer-mode writer next to another writer that is at work (its pending instant has a live heartbeat):
 * it refuses to start with an error naming the setting for several writers, and neither it nor a rollback of failed
 * writes touches the other's instant (before, the eager policy rolled back every pending write, a live neighbour's
 * too). A writer that is gone (its process killed) is rolled back by the next write at once.
 */
class SingleWriterGuardTest {
  @TempDir
  Path dir;

  @Test
  void aSingleWriterRefusesToStartNextToALiveWriterInAThreadAndLeavesItsInstant()
      throws IOException, InterruptedException, ExecutionException, TimeoutException {
    Path table = WritersRaceTest.seed(dir.resolve("t"), TableType.COPY_ON_WRITE);
    Path sync = Files.createDirectories(dir.resolve("sync"));
    Files.writeString(sync.resolve("x.listed"), "x");
    CompletableFuture<String> a = CompletableFuture.supplyAsync(() -> RaceWriter.run(table, "a", "x", sync, true,
        WritersRaceTest.mode("single"), 5));
    Instant pending = awaitPendingWrite(table);
    assertRefusedAndUntouched(table, pending);
    Files.writeString(sync.resolve("x.done"), "x");
    assertTrue(a.get(2, TimeUnit.MINUTES).startsWith("COMMITTED " + pending.time()), "the live writer commits");
    assertEquals("a", WritersRaceTest.names(Tables.open(table.toString())).get("a-k0"));
  }

  @Test
  void aSingleWriterRefusesToStartNextToALiveWriterProcessAndRollsItBackOnceItIsKilled()
      throws IOException, InterruptedException, ExecutionException, TimeoutException {
    Path table = WritersRaceTest.seed(dir.resolve("t"), TableType.MERGE_ON_READ);
    Path sync = Files.createDirectories(dir.resolve("sync"));
    Files.writeString(sync.resolve("x.listed"), "x");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        RaceWriter.class.getName(), table.toString(), "a", "x", sync.toString(), "true", "5"));
    Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      Instant pending = awaitPendingWrite(table);
      SluiceException e = assertRefusedAndUntouched(table, pending);
      assertTrue(e.getMessage().contains("process " + child.pid()), "names the other writer: " + e.getMessage());
      child.destroyForcibly();
      assertTrue(child.waitFor(1, TimeUnit.MINUTES));
      // the heartbeat is seconds old, far from its expiry, but its process is gone: the next write rolls it back
      Table t = Tables.open(table.toString());
      t.upsert(List.of(trip("s0", 7, "p0", "next", 0)).iterator());
      assertTrue(TableInternals.timeline(t).filter(i -> !i.isCompleted()).isEmpty(), TableInternals.timeline(t)
          .toString());
      assertEquals("next", WritersRaceTest.names(t).get("s0"));
      assertEquals(null, WritersRaceTest.names(t).get("a-k0"), "nothing of the killed write");
    } finally {
      child.destroyForcibly();
    }
  }

  private static SluiceException assertRefusedAndUntouched(Path table, Instant pending) {
    Table b = Tables.open(table.toString());
    SluiceException e = assertThrows(SluiceException.class, () -> b.upsert(List.of(trip("s1", 9, "p0", "b", 1))
        .iterator()));
    assertEquals(SluiceException.Kind.CONFLICT, e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains("single-writer mode") && e.getMessage().contains(
        "hoodie.write.concurrency.mode=OPTIMISTIC_CONCURRENCY_CONTROL") && e.getMessage().contains(pending.time()),
        e.getMessage());
    assertEquals(List.of(), b.rollbackFailedWrites(), "a live write is not a failed write");
    SluiceException r = assertThrows(SluiceException.class, () -> b.rollback(pending.time()));
    assertTrue(r.getMessage().contains("still at work"), r.getMessage());
    assertEquals(List.of(pending.time()), TableInternals.timeline(b).inflightWrites().stream().map(Instant::time)
        .distinct().toList(), "the live writer's instant is still pending");
    assertEquals("seed", WritersRaceTest.names(b).get("s1"), "b wrote nothing");
    return e;
  }

  private static Instant awaitPendingWrite(Path table) throws InterruptedException, IOException {
    long deadline = System.currentTimeMillis() + 120_000;
    while (System.currentTimeMillis() < deadline) {
      Table t = Tables.open(table.toString());
      List<Instant> pending = TableInternals.timeline(t).inflightWrites();
      if (!pending.isEmpty() && Files.exists(table.resolve(".hoodie/.heartbeat/" + pending.get(0).time()))
          && !Files.readString(table.resolve(".hoodie/.heartbeat/" + pending.get(0).time()), StandardCharsets.UTF_8)
              .isEmpty()) {
        return pending.get(0);
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the writer did not start: " + Map.of());
  }
}
