package dev.sluice.internal.mdt.read;

import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.internal.timeline.avro.RollbackPlan;
import dev.sluice.internal.timeline.avro.RestoreMetadata;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The instants whose metadata-table log blocks a Hudi reader trusts ({@code getValidInstantTimestamps}; {@link #of} as
 * Hudi 0.15 for version-6 tables, {@link #ofHudi1} as Hudi 1.x for versions 8 and 9): the
 * metadata table is written before the data table's instant completes, so a block counts only once the data
 * table says its write happened. The set holds
 * <ul>
 *   <li>every completed instant of the data table's active timeline;</li>
 *   <li>completed metadata deltacommits whose time is 17 digits plus an operation suffix {@code 001}-{@code 006} or
 *       an initialization suffix {@code 010} and above (writes of the metadata table's own);</li>
 *   <li>the instants rolled back by completed data-table rollbacks and restores newer than the oldest instant so far
 *       (the rollback's metadata, or its plan when the completed file is empty);</li>
 *   <li>completed rollbacks and restores of the metadata table, and its completed deltacommits whose time starts
 *       with {@code 00000000000000} (initialization of an empty table).</li>
 * </ul>
 */
public final class ValidInstants {
  /** Operation suffixes of metadata-table instants (compaction, clean, restore, indexer, log compaction, rollback). */
  private static final Set<String> OPERATION_SUFFIXES = Set.of("001", "002", "003", "004", "005", "006");
  /** The first partition-initialization suffix. */
  private static final String INIT_SUFFIX = "010";
  private static final int SUFFIXED_LENGTH = InstantTimes.MILLIS_LENGTH + 3;

  private ValidInstants() {
  }

  /**
   * The valid set for a metadata table with timeline {@code metadata} beside the data table whose active timeline
   * is {@code data} (read from {@code dataStore} for rollback and restore metadata).
   */
  public static Set<String> of(Timeline data, TimelineStore dataStore, Timeline metadata) {
    Set<String> valid = new HashSet<>();
    for (Instant i : data.completed().instants()) {
      valid.add(i.time());
    }
    for (Instant i : metadata.completed().instants()) {
      if (i.action() == Action.DELTACOMMIT && isMetadataOwn(i.time())) {
        valid.add(i.time());
      }
    }
    addRollbacks(valid, data, dataStore, metadata);
    return Set.copyOf(valid);
  }

  /**
   * The valid set as Hudi 1.x computes it for a version-8/9 table: every completed data-table instant; every
   * completed metadata deltacommit whose time is not a pending instant of the data table (the metadata table of
   * 1.x writes its own instants with fresh times, not suffixes, so only a failed data write's deltacommit is left
   * out); the instants rolled back by completed data-table rollbacks and restores newer than the oldest instant so
   * far; completed metadata rollbacks and restores, and its deltacommits whose time starts with
   * {@code 00000000000000}.
   */
  public static Set<String> ofHudi1(Timeline data, TimelineStore dataStore, Timeline metadata) {
    Set<String> valid = new HashSet<>();
    Set<String> pending = new HashSet<>();
    for (Instant i : data.instants()) {
      if (i.isCompleted()) {
        valid.add(i.time());
      } else {
        pending.add(i.time());
      }
    }
    for (Instant i : metadata.completed().instants()) {
      if (i.action() == Action.DELTACOMMIT && !pending.contains(i.time())) {
        valid.add(i.time());
      }
    }
    addRollbacks(valid, data, dataStore, metadata);
    return Set.copyOf(valid);
  }

  private static void addRollbacks(Set<String> valid, Timeline data, TimelineStore dataStore, Timeline metadata) {
    String earliest = valid.isEmpty() ? InstantTimes.INIT_INSTANT : Collections.min(valid);
    for (Instant i : data.completed().instants()) {
      if ((i.action() == Action.ROLLBACK || i.action() == Action.RESTORE) && InstantTimes.isBefore(earliest, i.time())) {
        valid.addAll(rolledBack(i, dataStore));
      }
    }
    for (Instant i : metadata.completed().instants()) {
      if (i.action() == Action.ROLLBACK || i.action() == Action.RESTORE
          || (i.action() == Action.DELTACOMMIT && i.time().startsWith(InstantTimes.INIT_INSTANT))) {
        valid.add(i.time());
      }
    }
  }

  /** True for a 20-character metadata instant with an operation or initialization suffix ({@code isValidInstant}). */
  static boolean isMetadataOwn(String time) {
    if (time.length() != SUFFIXED_LENGTH) {
      return false;
    }
    String suffix = time.substring(InstantTimes.MILLIS_LENGTH);
    return OPERATION_SUFFIXES.contains(suffix) || suffix.compareTo(INIT_SUFFIX) >= 0;
  }

  /** The instants a completed data-table rollback or restore rolled back. */
  private static List<String> rolledBack(Instant completed, TimelineStore store) {
    String where = store.pathOf(completed);
    byte[] bytes = store.read(completed);
    if (completed.action() == Action.RESTORE) {
      return RestoreMetadata.fromAvroBytes(bytes, where).rollbacks().values().stream()
          .flatMap(List::stream).flatMap(r -> r.commitsRollback().stream()).toList();
    }
    if (bytes.length > 0) {
      return RollbackMetadata.fromAvroBytes(bytes, where).commitsRollback();
    }
    // an empty completed rollback (Hudi writes one when nothing was left to roll back): its plan names the target
    Instant requested = Instant.requested(completed.time(), Action.ROLLBACK);
    return List.of(RollbackPlan.fromAvroBytes(store.read(requested), store.pathOf(requested)).instantToRollback().commitTime());
  }
}
