package dev.sluice.internal.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LockProviderTest {
  @TempDir
  Path dir;

  private FileSystemLockProvider fsLock(int expireMinutes) {
    return new FileSystemLockProvider(new LocalStorage(), dir.toString(), expireMinutes);
  }

  @Test
  void theLockFileIsExclusiveAndSaysWhoHoldsIt() throws IOException {
    FileSystemLockProvider a = fsLock(0);
    FileSystemLockProvider b = fsLock(0);
    assertTrue(a.tryLock());
    assertFalse(b.tryLock());
    String owner = b.currentOwner().orElseThrow();
    assertTrue(owner.contains("\"pid\":" + ProcessHandle.current().pid()), owner);
    a.unlock();
    assertFalse(Files.exists(dir.resolve("lock")));
    assertTrue(b.tryLock());
    a.unlock();
    assertTrue(Files.exists(dir.resolve("lock")), "only the holder removes the lock");
    b.unlock();
  }

  @Test
  void aLockOfADeadProcessOnThisHostIsBrokenAndAnExpiredOneToo() throws IOException, InterruptedException {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
        .redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    p.waitFor();
    String host = InetAddress.getLocalHost().getHostName();
    Files.writeString(dir.resolve("lock"), "{\"lockCreateTime\":\"x\",\"host\":\"" + host + "\",\"pid\":" + p.pid()
        + ",\"processStart\":\"\",\"token\":\"dead\"}");
    assertTrue(fsLock(0).tryLock(), "the holder is gone");
    Files.delete(dir.resolve("lock"));

    // this process holds no lock with that token: a release here that could not delete the file left it
    Files.writeString(dir.resolve("lock"), "{\"host\":\"" + host + "\",\"pid\":" + ProcessHandle.current().pid()
        + ",\"token\":\"released\"}");
    FileSystemLockProvider mine = fsLock(0);
    assertTrue(mine.tryLock(), "a lock this process left behind is broken at once");
    mine.unlock();

    String alive = "{\"host\":\"" + host + "\",\"pid\":" + ProcessHandle.current().parent().orElseThrow().pid()
        + ",\"token\":\"other\"}";
    Files.writeString(dir.resolve("lock"), alive);
    Files.setLastModifiedTime(dir.resolve("lock"), FileTime.fromMillis(System.currentTimeMillis() - 600_000));
    assertFalse(fsLock(0).tryLock(), "a live holder's lock never expires with expire=0");
    assertFalse(fsLock(20).tryLock(), "not yet expired");
    assertTrue(fsLock(5).tryLock(), "older than 5 minutes");
    Files.writeString(dir.resolve("lock"), "{\"host\":\"elsewhere\",\"pid\":1,\"token\":\"remote\"}");
    assertFalse(fsLock(0).tryLock(), "a holder on another host is never taken as dead");
  }

  @Test
  void waitingForTheLockEndsInAConflictNamingItsHolder() {
    FileSystemLockProvider holder = fsLock(0);
    assertTrue(holder.tryLock());
    TableLock lock = new TableLock(fsLock(0), 100, 10);
    SluiceException e = assertThrows(SluiceException.class, () -> lock.acquire("commit instant 1"));
    assertEquals(SluiceException.Kind.CONFLICT, e.kind());
    assertTrue(e.getMessage().contains(dir.resolve("lock").toString()) && e.getMessage().contains("held by"),
        e.getMessage());
    holder.unlock();
    try (TableLock.Held held = lock.acquire("commit instant 1")) {
      assertTrue(Files.exists(dir.resolve("lock")));
    }
    assertFalse(Files.exists(dir.resolve("lock")));
  }

  @Test
  void theInProcessLockIsPerTableAndNotReentrant() throws InterruptedException, java.util.concurrent.ExecutionException {
    InProcessLockProvider a = new InProcessLockProvider(dir.resolve("t1").toString());
    assertTrue(a.tryLock());
    assertThrows(SluiceException.class, a::tryLock);
    boolean other = CompletableFuture.supplyAsync(() -> new InProcessLockProvider(dir.resolve("t1").toString()).tryLock()).get();
    assertFalse(other, "another thread waits");
    assertTrue(CompletableFuture.supplyAsync(() -> {
      InProcessLockProvider c = new InProcessLockProvider(dir.resolve("t2").toString());
      boolean ok = c.tryLock();
      c.unlock();
      return ok;
    }).get(), "another table's lock is free");
    a.unlock();
  }

  @Test
  void providersAreChosenByHudisClassNames() {
    LocalStorage s = new LocalStorage();
    assertTrue(TableLock.provider(s, dir.toString(), CommitSettings.from(Config.empty())) instanceof FileSystemLockProvider);
    assertTrue(TableLock.provider(s, dir.toString(), CommitSettings.from(Config.of(Map.of("hoodie.write.lock.provider",
        TableLock.IN_PROCESS_PROVIDER)))) instanceof InProcessLockProvider);
    SluiceException e = assertThrows(SluiceException.class, () -> TableLock.provider(s, dir.toString(),
        CommitSettings.from(Config.of(Map.of(
        "hoodie.write.lock.provider", "org.apache.hudi.client.transaction.lock.ZookeeperBasedLockProvider")))));
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    assertTrue(e.getMessage().contains("ZookeeperBasedLockProvider"), e.getMessage());
  }

  /**
   * A waiter that looks at the lock while its holder is releasing it (after the holder read the file, before it
   * deleted it) must not take the lock: if it did, the holder's delete would remove the waiter's fresh lock and a
   * third party could take the table lock alongside the waiter. Two metadata-table compactions of one delta commit
   * ran together this way ({@code <t>001.compaction.requested already exists}).
   */
  @Test
  void aLockIsNotBrokenWhileItsHolderIsReleasingIt() throws IOException {
    String lockFile = dir.resolve("lock").toString();
    FileSystemLockProvider waiter = fsLock(0);
    boolean[] waiterTookIt = new boolean[1];
    boolean[] once = new boolean[1];
    InterceptedStorage releasing = new InterceptedStorage(new LocalStorage(), call -> {
      if (call.op() == InterceptedStorage.Op.DELETE && call.path().equals(lockFile) && !once[0]) {
        once[0] = true;
        waiterTookIt[0] = waiter.tryLock();
      }
    });
    FileSystemLockProvider holder = new FileSystemLockProvider(releasing, dir.toString(), 0);
    assertTrue(holder.tryLock());
    holder.unlock();
    assertTrue(once[0], "the holder deleted its lock file");
    assertFalse(waiterTookIt[0], "the lock was still held while its holder released it");
    assertFalse(Files.exists(dir.resolve("lock")), "released");
    assertTrue(waiter.tryLock());
    assertFalse(fsLock(0).tryLock(), "one holder at a time");
    waiter.unlock();
  }
}
