package dev.sluice.internal.commit;

import dev.sluice.internal.timeline.Instant;
import java.util.function.Function;

/**
 * What one action (a compaction, a clean, a rollback, a savepoint, a restore; later clustering) supplies to
 * {@link InstantLifecycle#run}: the content of its inflight file, the work that carries its plan out, and the
 * completed instant's content. The lifecycle does the rest: the transitions, the lock, the markers' clean-up. (Its
 * plan, the requested file's content, is given to {@link InstantLifecycle#request}.)
 *
 * @param <R> what the work produces, from which the completed instant's content is made
 */
public interface InstantAction<R> {
  /** An action with an empty inflight file, no markers and nothing to do before the publish. */
  static <R> InstantAction<R> of(Function<Instant, R> execute, Function<R, byte[]> metadata) {
    return new InstantAction<>() {
      @Override
      public R execute(Instant inflight) {
        return execute.apply(inflight);
      }

      @Override
      public byte[] metadata(R result) {
        return metadata.apply(result);
      }
    };
  }

  /** The content of the inflight file; Hudi writes it empty for most actions (a clean repeats its plan there). */
  default byte[] inflightContent() {
    return new byte[0];
  }

  /** Carries the plan out; {@code inflight} is the instant's inflight state, on the timeline already. */
  R execute(Instant inflight);

  /**
   * True if the work wrote data files behind markers under the instant's time: the lifecycle deletes them after the
   * publish.
   */
  default boolean writesMarkers() {
    return false;
  }

  /** The completed instant's content (its metadata), from what {@link #execute} returned. */
  byte[] metadata(R result);

  /**
   * Work that must be complete before the publish, run just before it (inside the lock when the publish takes it):
   * the place for the metadata table's mirror commit. Nothing by default.
   */
  default void beforePublish(Instant inflight, R result) {
  }
}
