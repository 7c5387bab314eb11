package dev.sluice.internal.mdt.write;

import dev.sluice.api.CloseableIterator;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.timeline.Timeline;

/**
 * The live record keys of a data-table file slice, for building the record index: a base file's keys, or a
 * Merge-on-Read slice's keys after its committed log blocks are merged (deleted keys gone). Supplied by the read
 * package, which owns slice merging (this package sits below it).
 */
public interface SliceKeys {
  /** The keys of {@code slice} as of the latest completed instant of {@code dataTimeline}, in any order. */
  CloseableIterator<String> keys(FileSlice slice, Timeline dataTimeline);
}
