package dev.sluice.internal.commit;

import dev.sluice.internal.error.Errors;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.util.KillPoints;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.Optional;
import java.util.UUID;

/**
 * A lock file, {@code <folder>/lock} ({@code FileSystemBasedLockProvider}; the folder defaults to {@code .hoodie}):
 * taking the lock is creating the file with {@link Storage#createExclusive} (one atomic create that fails if the file
 * exists, on local disk and HDFS alike), releasing it is deleting the file. The file says who holds it.
 *
 * <p>A lock whose holder is gone is broken: after {@code expireMinutes} (Hudi's
 * {@code hoodie.write.lock.filesystem.expire}; 0 never), or at once if the holder is a process on this host that
 * no longer runs, or if the holder is this process and the provider that took it has released it (a release whose
 * delete failed). Breaking goes through a {@code lock.break} file created exclusively and a re-read of the lock, so
 * two waiters never both break it and a fresh lock is never deleted by mistake.
 */
public final class FileSystemLockProvider implements LockProvider {
  /** The table lock's file name. */
  static final String LOCK_FILE = "lock";
  private static final String BREAK_SUFFIX = ".break";
  private static final long BREAK_FILE_STALE_MILLIS = 60_000L;

  private final Storage storage;
  private final String lockPath;
  private final String breakPath;
  private final long expireMillis;
  private final String token = UUID.randomUUID().toString();
  private volatile boolean held;

  /** The lock file in {@code folder}, expiring after {@code expireMinutes} (0: never). */
  public FileSystemLockProvider(Storage storage, String folder, int expireMinutes) {
    this(storage, folder, LOCK_FILE, expireMinutes);
  }

  /** The lock file {@code fileName} in {@code folder} (its break file: {@code <fileName>.break}). */
  public FileSystemLockProvider(Storage storage, String folder, String fileName, int expireMinutes) {
    this.storage = storage;
    this.lockPath = StoragePaths.join(folder, fileName);
    this.breakPath = StoragePaths.join(folder, fileName + BREAK_SUFFIX);
    this.expireMillis = expireMinutes * 60_000L;
  }

  @Override
  public synchronized boolean tryLock() {
    if (held) {
      throw Errors.internal("the lock " + lockPath + " is already held by this provider", null);
    }
    try {
      Optional<FileInfo> existing = storage.info(lockPath);
      if (existing.isPresent()) {
        Optional<String> content = read(lockPath);
        if (content.isEmpty() || !abandoned(existing.get(), content.get()) || !breakLock(content.get())) {
          return false;
        }
      }
      Owners.register(token);
      try {
        storage.createExclusive(lockPath, Owners.describe(token).getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        Owners.release(token);
        throw e;
      }
      held = true;
      KillPoints.reach("lock.acquired");
      return true;
    } catch (FileAlreadyExistsException e) {
      // another writer created it between our check and our create: it holds the lock
      return false;
    } catch (IOException e) {
      throw Errors.storage("take the lock", lockPath, e);
    }
  }

  @Override
  public synchronized void unlock() {
    if (!held) {
      return;
    }
    held = false;
    KillPoints.reach("lock.release");
    try {
      Optional<String> content = read(lockPath);
      if (content.isPresent() && content.get().contains(token)) {
        storage.delete(lockPath);
      }
    } catch (IOException e) {
      throw Errors.storage("release the lock", lockPath, e);
    } finally {
      // only now may a waiter in this process count the lock as abandoned (a file this provider could not delete):
      // released before the delete, a waiter could break the lock and take it between our read and our delete, and
      // the delete would then remove the waiter's fresh lock, letting a third party in beside it
      Owners.release(token);
    }
  }

  @Override
  public String lockName() {
    return lockPath;
  }

  @Override
  public Optional<String> currentOwner() {
    try {
      return read(lockPath);
    } catch (IOException e) {
      throw Errors.storage("read the lock", lockPath, e);
    }
  }

  private boolean abandoned(FileInfo info, String content) {
    if (expireMillis > 0 && System.currentTimeMillis() - info.modificationTime() > expireMillis) {
      return true;
    }
    return Owners.isGone(content);
  }

  /** Deletes the lock if it still holds {@code staleContent}; true if the way is now clear. */
  private boolean breakLock(String staleContent) throws IOException {
    try {
      storage.createExclusive(breakPath, token.getBytes(StandardCharsets.UTF_8));
    } catch (FileAlreadyExistsException e) {
      Optional<FileInfo> b = storage.info(breakPath);
      if (b.isPresent() && System.currentTimeMillis() - b.get().modificationTime() > BREAK_FILE_STALE_MILLIS) {
        // a breaker that died mid-break: its break file is removed so a later attempt can proceed
        storage.delete(breakPath);
      }
      return false;
    }
    try {
      Optional<String> now = read(lockPath);
      if (now.isPresent() && !now.get().equals(staleContent)) {
        return false;
      }
      storage.delete(lockPath);
      return true;
    } finally {
      storage.delete(breakPath);
    }
  }

  private Optional<String> read(String path) throws IOException {
    try (InputStream in = storage.openRead(path)) {
      return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (NoSuchFileException | java.io.FileNotFoundException e) {
      // released between our check and our read
      return Optional.empty();
    }
  }
}
