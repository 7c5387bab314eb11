package dev.sluice.internal.write;

import dev.sluice.api.FileWriteResult;
import dev.sluice.internal.mdt.write.RecordIndexChanges;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.commit.Markers;
import dev.sluice.internal.util.ProgressMeter;
import java.io.Closeable;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A tagged batch as {@link WritePlanner} plans it (counts only) and as the file group handles then read it: held in
 * memory ({@link InMemoryBatch}) or, past the write memory budget, in sorted spill files ({@link SpillingWrite}).
 * The planner decides every routing; a source only hands each planned write the records it was planned with.
 */
interface PlanSource extends Closeable {
  /**
   * An existing file group holding keys of the batch.
   *
   * @param id the file group
   * @param baseInstant the base instant the index found the keys in (for the conflict message if it is gone)
   * @param updates how many updates and deletes it takes
   */
  record TaggedGroup(FileGroupId id, String baseInstant, long updates) {
  }

  /**
   * The handles a write's file groups are written with, all of one instant, each telling {@code recordIndex} the
   * keys it wrote to a new location or deleted.
   */
  record Handles(CreateHandle creates, MergeHandle merges, AppendHandle appends, ProgressMeter written) {
    static Handles of(WriteSetup setup, Markers markers, String instant, RecordIndexChanges recordIndex,
        OutcomeCounts counts) {
      return new Handles(new CreateHandle(setup, markers, instant, recordIndex),
          new MergeHandle(setup, markers, instant, recordIndex, counts), new AppendHandle(setup, markers, instant, recordIndex),
          ProgressMeter.OFF);
    }

    /** These handles, counting the records of the planned file groups written on {@code meter}. */
    Handles reporting(ProgressMeter meter) {
      return new Handles(creates, merges, appends, meter);
    }
  }

  /** The existing file groups that hold keys of the batch, in any order. */
  Collection<TaggedGroup> taggedGroups();

  /** Inserts (records of new keys; deletes of unknown keys are dropped) per partition. */
  Map<String, Long> insertCounts();

  /**
   * Writes {@code plan}, made by {@link WritePlanner#plan} from this source, with {@code handles}: each file group
   * its tagged updates and, in plan order, the next inserts of its partition in key order.
   */
  List<FileWriteResult> apply(List<FileGroupWrite> plan, Handles handles);

  /** Releases the records (spill files included). */
  @Override
  void close();
}
