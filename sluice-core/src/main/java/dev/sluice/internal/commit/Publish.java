package dev.sluice.internal.commit;

/** How an instant's completed file is published ({@link InstantLifecycle}). */
public enum Publish {
  /**
   * Under the table's lock when the concurrency mode has one (a write, a compaction): other writers' conflict checks
   * and publishes do not interleave with it.
   */
  UNDER_LOCK,
  /**
   * Without taking the lock: the whole action runs inside its caller's {@link InstantLifecycle#locked} (a rollback,
   * a savepoint, a restore).
   */
  DIRECT,
  /**
   * Without the lock, by one of possibly several processes that carry out the same plan (a clean: deleting is
   * idempotent): the inflight or completed file another process created first is taken as this one's.
   */
  SHARED,
  /** Not at all: the instant stays inflight for its caller to remove (the rollbacks a restore runs). */
  NEVER
}
