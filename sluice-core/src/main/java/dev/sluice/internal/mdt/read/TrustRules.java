package dev.sluice.internal.mdt.read;

import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Which parts of a metadata table a reader trusts: the seam between the metadata table of a version-6 table, read
 * as Hudi 0.15 reads it, and that of a version-8/9 table (itself a table of timeline layout 2, log files named after
 * their own deltacommit), read as Hudi 1.x reads it. Chosen once from the data table's timeline, as
 * {@code fsview.LogPlacement} is: the 1.x rules lean on the file-system view of a completion-time timeline, which
 * already leaves out the log files of deltacommits that did not complete.
 */
sealed interface TrustRules permits TrustRules.Hudi015, TrustRules.Hudi1 {

  /** The rules for the metadata table of the data table whose active timeline is {@code data}. */
  static TrustRules of(Timeline data) {
    return data.layout().slicesByCompletionTime() ? new Hudi1() : new Hudi015();
  }

  /** The instants whose log blocks count. */
  Set<String> validInstants(Timeline data, TimelineStore dataStore, Timeline metadata);

  /**
   * The instant the metadata table's file slices are cut at ({@code getLatestMergedFileSlicesBeforeOrOn}); empty if
   * the metadata table has no completed instant.
   */
  Optional<String> sliceCut(Timeline metadata);

  /**
   * True if a data or delete block must also be a completed (not inflight) commit or deltacommit of the metadata
   * table itself; false where the view already dropped the log files of such deltacommits.
   */
  boolean checksBlockCommitted();

  /** True if the scan ends at the first block after the latest completed instant; false if only that block is skipped. */
  boolean stopsAtLaterBlock();

  /**
   * The first completed data-table instant the metadata table should mirror but does not: Sluice's own check (Hudi
   * readers trust a listed metadata table blindly) that keeps a metadata table a writer left behind (an older Sluice,
   * a Hudi writer with it off) from hiding files.
   */
  Optional<Instant> unmirrored(Timeline data, Timeline metadata);

  /** Hudi 0.15 (table version 6): {@link ValidInstants}, the scan stops at a later block. */
  record Hudi015() implements TrustRules {
    @Override
    public Set<String> validInstants(Timeline data, TimelineStore dataStore, Timeline metadata) {
      return ValidInstants.of(data, dataStore, metadata);
    }

    @Override
    public Optional<String> sliceCut(Timeline metadata) {
      return metadata.lastCompleted().map(Instant::time);
    }

    @Override
    public boolean checksBlockCommitted() {
      return true;
    }

    @Override
    public boolean stopsAtLaterBlock() {
      return true;
    }

    @Override
    public Optional<Instant> unmirrored(Timeline data, Timeline metadata) {
      return MetadataTables.unmirrored(data, metadata);
    }
  }

  /**
   * Hudi 1.x (table versions 8 and 9, {@code HoodieTableMetadataUtil.getValidInstantTimestamps} and the 1.x log
   * scanner): every completed metadata deltacommit is valid unless the data table's instant of the same time is
   * pending (a write that failed after its metadata deltacommit completed); a later block is skipped, not the end of
   * the scan; slices are cut at the newest completed instant or pending compaction, so that deltacommits that
   * completed after a compaction was planned (their logs join its slice) are read.
   */
  record Hudi1() implements TrustRules {
    private static final Set<Action> MIRRORED = EnumSet.of(Action.COMMIT, Action.DELTACOMMIT, Action.REPLACECOMMIT,
        Action.CLEAN);

    @Override
    public Set<String> validInstants(Timeline data, TimelineStore dataStore, Timeline metadata) {
      return ValidInstants.ofHudi1(data, dataStore, metadata);
    }

    @Override
    public Optional<String> sliceCut(Timeline metadata) {
      if (metadata.lastCompleted().isEmpty()) {
        return Optional.empty();
      }
      return metadata.completedAndPendingCompactions().lastInstant().map(Instant::time);
    }

    @Override
    public boolean checksBlockCommitted() {
      return false;
    }

    @Override
    public boolean stopsAtLaterBlock() {
      return false;
    }

    /**
     * Hudi 1.x mirrors a commit, deltacommit, replacecommit (compactions and clustering included) or clean with a
     * metadata deltacommit at the same time, and a restore with a sync deltacommit at a later, new time. A rollback
     * is mirrored by rolling back the metadata deltacommit of the failed instant, or not at all when the failed write
     * never reached the metadata table, so it is not checked. The metadata table's initialization
     * ({@code 00000000000000000} and up, 17 digits) lists storage: it covers the data instants that completed before
     * it did. A first instant of another kind (after the metadata timeline was archived, or one kept from a
     * version-6 metadata table by an upgrade) covers the data instants requested before it.
     */
    @Override
    public Optional<Instant> unmirrored(Timeline data, Timeline metadata) {
      Timeline completed = metadata.completed();
      Optional<Instant> first = completed.firstInstant();
      if (first.isEmpty()) {
        return data.completed().filter(i -> MIRRORED.contains(i.action()) || i.action() == Action.RESTORE).firstInstant();
      }
      String start = first.get().time();
      Optional<String> initCompleted = start.startsWith(InstantTimes.INIT_INSTANT)
          ? metadata.completionTime(start) : Optional.empty();
      Set<String> deltacommits = new HashSet<>();
      for (Instant i : completed.instants()) {
        if (i.action() == Action.DELTACOMMIT) {
          deltacommits.add(i.time());
        }
      }
      for (Instant i : data.completed().instants()) {
        if (!MIRRORED.contains(i.action()) && i.action() != Action.RESTORE) {
          continue;
        }
        boolean covered = initCompleted.isPresent()
            ? InstantTimes.isBefore(data.completionTime(i.time()).orElse(i.time()), initCompleted.get())
            : InstantTimes.isBefore(i.time(), start);
        if (covered) {
          continue;
        }
        boolean mirrored = i.action() == Action.RESTORE
            ? deltacommits.stream().anyMatch(t -> InstantTimes.isBefore(i.time(), t))
            : deltacommits.contains(i.time());
        if (!mirrored) {
          return Optional.of(i);
        }
      }
      return Optional.empty();
    }
  }
}
