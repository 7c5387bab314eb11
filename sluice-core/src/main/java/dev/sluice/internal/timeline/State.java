package dev.sluice.internal.timeline;

/** Instant states, in Hudi's order (later states compare greater). */
public enum State {
  /** Planned: {@code <ts>.<action>.requested}. */
  REQUESTED,
  /** Running: {@code <ts>.<action>.inflight} (or {@code <ts>.inflight} for commits). */
  INFLIGHT,
  /** Done: {@code <ts>.<action>}. */
  COMPLETED
}
