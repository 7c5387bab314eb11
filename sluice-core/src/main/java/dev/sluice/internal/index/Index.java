package dev.sluice.internal.index;

import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.util.ProgressMeter;
import java.util.List;

/**
 * Tagging, the first step of every tagged write: maps each incoming record key to the file group that already
 * holds it. Matches are updates, the rest inserts.
 */
public interface Index {
  /**
   * Tags {@code records} against the latest base files of {@code view}. A global index that finds a key in
   * another partition either moves it (a delete in the old partition plus an insert in the new one) or
   * updates it in place, as configured.
   */
  List<TaggedRecord> tag(List<WriteRecord> records, FileSystemView view);

  /**
   * As {@link #tag(List, FileSystemView)}, counting the records tagged into {@code progress} as the lookups go (an
   * index that looks the batch up in one piece counts it all when it returns).
   */
  default List<TaggedRecord> tag(List<WriteRecord> records, FileSystemView view, ProgressMeter progress) {
    List<TaggedRecord> out = tag(records, view);
    progress.advance(records.size());
    return out;
  }

  /** True if keys are unique across partitions. */
  boolean isGlobal();

  /**
   * Base files opened by the last {@link #tag} call, for benchmarks and tests: a file counts if its footer was
   * read or its key column checked (once if both). Footers are read once per index instance, so later calls
   * count only the files whose key range and bloom filter admit a key.
   */
  long filesOpened();
}
