package dev.sluice.internal.commit;

import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import java.util.Optional;

/**
 * The other writers of a table that are still at work: pending writes whose heartbeat is live ({@link Heartbeats}).
 * A single-writer-mode writer refuses to start next to one, and no rollback of failed writes touches one: only
 * instants whose heartbeat expired (or whose writer is known to be gone, or that never had a heartbeat) are failed.
 */
public final class LiveWriters {
  private final Heartbeats heartbeats;

  /** The live writers as {@code heartbeats} tell them; does no I/O. */
  public LiveWriters(Heartbeats heartbeats) {
    this.heartbeats = heartbeats;
  }

  /** True if the writer of {@code pending} is gone: its write failed and may be rolled back. */
  public boolean isFailed(Instant pending) {
    return heartbeats.isExpired(pending.time());
  }

  /** The first pending write of {@code timeline} whose writer is live, with who it is; one file check per pending write. */
  public Optional<String> first(Timeline timeline) {
    for (Instant i : timeline.inflightWrites()) {
      Optional<String> who = heartbeats.liveOwner(i.time());
      if (who.isPresent()) {
        return Optional.of("instant " + i.time() + " (" + i.action().id() + ", " + i.state().name().toLowerCase(
            java.util.Locale.ROOT) + ") is being written by " + who.get());
      }
    }
    return Optional.empty();
  }

  /**
   * Refuses a single-writer-mode write to {@code basePath} if another writer is live: a CONFLICT that names the
   * other writer and the setting for several writers.
   */
  public void requireNone(Timeline timeline, String basePath) {
    Optional<String> other = first(timeline);
    if (other.isPresent()) {
      throw Errors.conflict("Cannot start a write to " + basePath + " in single-writer mode (" + ConfigKeys
          .WRITE_CONCURRENCY_MODE.name() + "=SINGLE_WRITER, the default)", "another writer is at work: " + other.get()
          + ". A single writer assumes it is alone, so this write did not start and left that instant alone. For "
          + "several writers at once set " + ConfigKeys.WRITE_CONCURRENCY_MODE.name() + "=OPTIMISTIC_CONCURRENCY_CONTROL "
          + "and a lock provider (" + ConfigKeys.LOCK_PROVIDER.name() + "=" + TableLock.FILE_SYSTEM_PROVIDER
          + " for several processes) on every writer, or record the mode in the table (sluice create --concurrency-mode"
          + " occ). If that writer is gone, its write counts as failed once its heartbeat is "
          + heartbeats.expiryMillis() + " ms old, and the next write rolls it back");
    }
  }
}
