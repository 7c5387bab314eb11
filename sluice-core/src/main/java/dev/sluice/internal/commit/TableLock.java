package dev.sluice.internal.commit;

import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import dev.sluice.storage.Storage;
import dev.sluice.internal.table.TableLayout;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The lock of one table as configured by {@code hoodie.write.lock.*} ({@code LockManager}): {@link #acquire} retries
 * until {@code hoodie.write.lock.wait_time_ms} has passed, pausing {@code ...wait_time_ms_between_retry} (with
 * jitter) between attempts, then fails with a CONFLICT naming the lock and its holder.
 *
 * <p>Whatever the concurrency mode, the lock includes the file-system lock {@code .hoodie/lock} (the file Hudi's
 * {@code FileSystemBasedLockProvider} takes by default), held only while a commit checks for conflicts and
 * publishes, or while failed writes are rolled back. A single writer takes just that file; optimistic concurrency
 * control takes the configured lock and then that file, unless the configured lock is that very file. So two
 * writers of one table never check and publish at the same time, whether they are threads or processes and
 * whatever each was configured with: a single-writer-mode writer, one with an in-process lock in another JVM and
 * one with the file lock all exclude each other at the commit point.
 */
public final class TableLock {
  /** Hudi's class name of the file-system lock. */
  public static final String FILE_SYSTEM_PROVIDER = "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider";
  /** Hudi's class name of the in-process lock. */
  public static final String IN_PROCESS_PROVIDER = "org.apache.hudi.client.transaction.lock.InProcessLockProvider";

  private final LockProvider provider;
  private final long waitMillis;
  private final long retryMillis;

  /** A lock around {@code provider}. */
  public TableLock(LockProvider provider, long waitMillis, long retryMillis) {
    this.provider = provider;
    this.waitMillis = Math.max(0, waitMillis);
    this.retryMillis = Math.max(1, retryMillis);
  }

  /**
   * The lock of the table at {@code basePath} for {@code settings}' concurrency mode: the publish lock
   * ({@link #publishLock}) with a single writer; with optimistic concurrency control the configured provider and then
   * the publish lock, or the configured provider alone when it is the same lock file.
   */
  public static TableLock forTable(Storage storage, String basePath, CommitSettings settings) {
    LockProvider publish = publishLock(storage, basePath, settings);
    LockProvider p = publish;
    if (ConcurrencyMode.of(settings) == ConcurrencyMode.OPTIMISTIC_CONCURRENCY_CONTROL) {
      LockProvider configured = provider(storage, basePath, settings);
      p = configured.lockName().equals(publish.lockName()) ? configured : new BothLocks(configured, publish);
    }
    return new TableLock(p, settings.lockWaitMillis(), settings.lockRetryMillis());
  }

  /**
   * The file-system lock {@code .hoodie/lock} every commit of the table takes, in every mode (expiring as
   * {@code hoodie.write.lock.filesystem.expire} says; a lock of a process that is gone is broken at once).
   */
  static LockProvider publishLock(Storage storage, String basePath, CommitSettings settings) {
    int expire = settings.lockFilesystemExpireMinutes();
    if (expire < 0) {
      throw Errors.badConfig(ConfigKeys.LOCK_FILESYSTEM_EXPIRE.name(), Integer.toString(expire), "0 or more minutes");
    }
    return new FileSystemLockProvider(storage, TableLayout.metaFolder(basePath), FileSystemLockProvider.LOCK_FILE, expire);
  }

  static LockProvider provider(Storage storage, String basePath, CommitSettings settings) {
    return provider(storage, basePath, settings, Optional.empty());
  }

  /**
   * The configured provider of the table's lock, or with {@code lockOf} of a lock of the same kind on one thing in
   * the table (a compaction's plan): a lock file {@code lock.<lockOf>} beside the table's, or an in-process lock.
   */
  static LockProvider provider(Storage storage, String basePath, CommitSettings settings, Optional<String> lockOf) {
    String name = settings.lockProvider();
    String simple = name.substring(name.lastIndexOf('.') + 1);
    switch (simple) {
      case "FileSystemBasedLockProvider", "FileSystemLockProvider" -> {
        String folder = settings.lockFilesystemPath();
        int expire = settings.lockFilesystemExpireMinutes();
        if (expire < 0) {
          throw Errors.badConfig(ConfigKeys.LOCK_FILESYSTEM_EXPIRE.name(), Integer.toString(expire), "0 or more minutes");
        }
        return new FileSystemLockProvider(storage, folder.isEmpty() ? TableLayout.metaFolder(basePath) : folder,
            lockOf.map(l -> FileSystemLockProvider.LOCK_FILE + "." + l).orElse(FileSystemLockProvider.LOCK_FILE), expire);
      }
      case "InProcessLockProvider" -> {
        return new InProcessLockProvider(lockOf.map(l -> basePath + "@" + l).orElse(basePath));
      }
      default -> throw Errors.badConfig(ConfigKeys.LOCK_PROVIDER.name(), name, FILE_SYSTEM_PROVIDER + " or "
          + IN_PROCESS_PROVIDER + " (Sluice has no ZooKeeper, Hive metastore or DynamoDB lock)");
    }
  }

  /** The provider. */
  public LockProvider provider() {
    return provider;
  }

  /** Takes the lock, waiting as configured; the returned handle releases it. */
  public Held acquire(String purpose) {
    long deadline = System.currentTimeMillis() + waitMillis;
    while (true) {
      if (provider.tryLock()) {
        return new Held();
      }
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        String owner = provider.currentOwner().map(o -> " held by " + o).orElse("");
        throw Errors.conflict("Taking the table lock to " + purpose, provider.lockName() + " is" + owner
            + " and was not released within " + waitMillis + " ms (hoodie.write.lock.wait_time_ms); if its holder is "
            + "gone, delete the lock file");
      }
      long pause = Math.min(left, retryMillis / 2 + ThreadLocalRandom.current().nextLong(retryMillis / 2 + 1));
      try {
        Thread.sleep(Math.max(1, pause));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw Errors.conflict("Taking the table lock to " + purpose, "the thread was interrupted while waiting");
      }
    }
  }

  /**
   * Two locks taken as one, always in the same order (the configured lock, then the publish lock), all or nothing: if
   * the second is busy the first is released again, so no two writers wait for each other.
   */
  static final class BothLocks implements LockProvider {
    private final LockProvider first;
    private final LockProvider second;

    BothLocks(LockProvider first, LockProvider second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public boolean tryLock() {
      if (!first.tryLock()) {
        return false;
      }
      boolean both = false;
      try {
        both = second.tryLock();
        return both;
      } finally {
        if (!both) {
          first.unlock();
        }
      }
    }

    @Override
    public void unlock() {
      try {
        second.unlock();
      } finally {
        first.unlock();
      }
    }

    @Override
    public String lockName() {
      return first.lockName() + " and " + second.lockName();
    }

    @Override
    public Optional<String> currentOwner() {
      Optional<String> a = first.currentOwner();
      return a.isPresent() ? a : second.currentOwner();
    }
  }

  /** A held lock; closing releases it. */
  public final class Held implements AutoCloseable {
    private boolean released;

    private Held() {
    }

    @Override
    public void close() {
      if (!released) {
        released = true;
        provider.unlock();
      }
    }
  }
}
