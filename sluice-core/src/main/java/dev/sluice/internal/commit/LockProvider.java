package dev.sluice.internal.commit;

import java.util.Optional;

/**
 * A table-wide lock for optimistic concurrency control ({@code LockProvider}): held while a writer checks for
 * conflicts and publishes its commit, and while failed writes are rolled back.
 */
public interface LockProvider {
  /** Tries once to take the lock; true if this caller now holds it. */
  boolean tryLock();

  /** Releases the lock if this caller holds it. */
  void unlock();

  /** What is locked, for messages (e.g. the lock file's path). */
  String lockName();

  /** Who holds the lock, if known (the lock file's content). */
  Optional<String> currentOwner();
}
