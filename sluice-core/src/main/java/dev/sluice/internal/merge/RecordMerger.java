package dev.sluice.internal.merge;

import dev.sluice.api.MergeMode;

/**
 * The merge rules of Hudi's payloads ({@code OverwriteWithLatestAvroPayload} and {@code DefaultHoodieRecordPayload},
 * table version 6) and of Hudi 1.x's merge modes (versions 8 and 9), in one place for CoW merges, log merging and
 * compaction. The two differ in one rule: under 1.x's commit-time ordering the later version of a key always wins,
 * also between log records (0.x's payload compares ordering values there).
 */
public final class RecordMerger {
  private final MergeMode mode;
  private final boolean mergeModeRules;

  /** Hudi 0.x's payload rules for {@code mode}. */
  public RecordMerger(MergeMode mode) {
    this(mode, false);
  }

  /** Rules for {@code mode}: Hudi 1.x's merge-mode rules if {@code mergeModeRules}, else 0.x's payload rules. */
  public RecordMerger(MergeMode mode, boolean mergeModeRules) {
    this.mode = mode;
    this.mergeModeRules = mergeModeRules;
  }

  /**
   * True if the later version of a key wins whatever the ordering values (Hudi 1.x's commit-time ordering,
   * {@code BufferedRecordMergerFactory}); deletes included.
   */
  public boolean latestAlwaysWins() {
    return mergeModeRules && mode == MergeMode.COMMIT_TIME_ORDERING;
  }

  /** The table's merge mode. */
  public MergeMode mode() {
    return mode;
  }

  /**
   * Pre-combine of two versions of a key arriving in one batch (or two log blocks): true if the newer
   * (later) one wins. A hard delete (delete API, no ordering) is always replaced by a later version; otherwise
   * the larger ordering value wins and a tie goes to the newer.
   */
  @SuppressWarnings("rawtypes")
  public boolean newerWins(Comparable olderOrdering, boolean olderIsHardDelete, Comparable newerOrdering) {
    if (olderIsHardDelete || latestAlwaysWins()) {
      return true;
    }
    return Ordering.compare(olderOrdering, newerOrdering) <= 0;
  }

  /** What an incoming version does to the stored row of its key. */
  public enum Outcome {
    /** The stored row stays. */
    KEEP,
    /** The incoming version replaces the stored row. */
    REPLACE,
    /** The incoming delete removes the stored row. */
    DELETE
  }

  /**
   * An incoming version against the stored one (CoW merge, base file ⊕ log record, compaction; walked by
   * {@link KeyedMerge}). A hard delete always wins; commit-time ordering always takes the incoming version;
   * event-time ordering takes it unless the stored ordering value is larger (a null stored value loses). A winning
   * version that deletes ({@code incomingDeletes}) removes the row, any other replaces it.
   */
  @SuppressWarnings("rawtypes")
  public Outcome outcome(Comparable storedOrdering, Comparable incomingOrdering, boolean incomingIsHardDelete,
      boolean incomingDeletes) {
    if (!incomingWins(storedOrdering, incomingOrdering, incomingIsHardDelete)) {
      return Outcome.KEEP;
    }
    return incomingDeletes ? Outcome.DELETE : Outcome.REPLACE;
  }

  @SuppressWarnings("rawtypes")
  private boolean incomingWins(Comparable storedOrdering, Comparable incomingOrdering, boolean incomingIsHardDelete) {
    if (incomingIsHardDelete || mode == MergeMode.COMMIT_TIME_ORDERING) {
      return true;
    }
    return storedOrdering == null || incomingOrdering == null || Ordering.compare(storedOrdering, incomingOrdering) <= 0;
  }
}
