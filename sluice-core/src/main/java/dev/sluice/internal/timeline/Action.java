package dev.sluice.internal.timeline;

import java.util.Optional;

/** Timeline actions, with the ids used in instant file names ({@code HoodieTimeline}). */
public enum Action {
  /** A Copy-on-Write write, or the completed form of a compaction. */
  COMMIT("commit"),
  /** A Merge-on-Read write, or the completed form of a log compaction. */
  DELTACOMMIT("deltacommit"),
  /** A compaction (requested and inflight states; completes as a commit). */
  COMPACTION("compaction"),
  /** A log compaction (completes as a deltacommit). */
  LOGCOMPACTION("logcompaction"),
  /** A clean. */
  CLEAN("clean"),
  /** A rollback. */
  ROLLBACK("rollback"),
  /** Clustering, insert_overwrite, delete_partition. */
  REPLACECOMMIT("replacecommit"),
  /**
   * A clustering's requested and inflight states in timeline layout 2 (table versions 8 and 9; completes as a
   * replacecommit). Version 6 tables name pending clusterings replacecommit.
   */
  CLUSTERING("clustering"),
  /** A savepoint (no requested state). */
  SAVEPOINT("savepoint"),
  /** A restore. */
  RESTORE("restore"),
  /** Async metadata indexing. */
  INDEXING("indexing");

  private final String id;

  Action(String id) {
    this.id = id;
  }

  /** The id in file names, e.g. {@code deltacommit}. */
  public String id() {
    return id;
  }

  /** The action with this id. */
  public static Optional<Action> fromId(String id) {
    for (Action a : values()) {
      if (a.id.equals(id)) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }

  /** The action whose completed file this one's completion writes (compaction → commit, log compaction → deltacommit). */
  public Action completedAs() {
    return switch (this) {
      case COMPACTION -> COMMIT;
      case LOGCOMPACTION -> DELTACOMMIT;
      case CLUSTERING -> REPLACECOMMIT;
      default -> this;
    };
  }

  /**
   * True for actions that write data files: commit, deltacommit, replacecommit, compaction, log compaction,
   * clustering.
   */
  public boolean writesData() {
    return this == COMMIT || this == DELTACOMMIT || this == REPLACECOMMIT || this == COMPACTION || this == LOGCOMPACTION
        || this == CLUSTERING;
  }
}
