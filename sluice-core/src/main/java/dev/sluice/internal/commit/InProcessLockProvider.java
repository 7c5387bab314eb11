package dev.sluice.internal.commit;

import dev.sluice.internal.error.Errors;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A lock shared by the threads of one JVM, one per table base path ({@code InProcessLockProvider}). Not reentrant:
 * a thread that takes it twice gets an error, as in Hudi. Useless across processes.
 */
public final class InProcessLockProvider implements LockProvider {
  private static final Map<String, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

  private final String basePath;
  private final ReentrantLock lock;

  /** The in-process lock of the table at {@code basePath}. */
  public InProcessLockProvider(String basePath) {
    this.basePath = basePath;
    this.lock = LOCKS.computeIfAbsent(basePath, k -> new ReentrantLock());
  }

  @Override
  public boolean tryLock() {
    if (lock.isHeldByCurrentThread()) {
      throw Errors.internal("the in-process lock of " + basePath + " is already held by this thread", null);
    }
    return lock.tryLock();
  }

  @Override
  public void unlock() {
    if (lock.isHeldByCurrentThread()) {
      lock.unlock();
    }
  }

  @Override
  public String lockName() {
    return "in-process lock of " + basePath;
  }

  @Override
  public Optional<String> currentOwner() {
    return Optional.empty();
  }
}
