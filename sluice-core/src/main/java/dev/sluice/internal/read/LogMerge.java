package dev.sluice.internal.read;

import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.internal.timeline.Timeline;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How a Merge-on-Read snapshot merges each file slice's log records into its base file.
 *
 * @param timeline the timeline the scan sees (cut at the as-of instant); decides which log blocks are committed
 * @param queryInstant the query instant: log blocks after it end a slice's log scan
 * @param precombineField the table's ordering field, if any
 * @param merger the table's merge rules
 * @param memoryBudget estimated heap bytes for one slice's merged log records before they spill
 * @param spillDirectory local folder for spilled log records
 * @param plainKeyField the field whose string value is each row's record key ({@code TableConfig#plainKeyField}),
 *     if the key generator makes one so
 */
record LogMerge(Timeline timeline, String queryInstant, Optional<String> precombineField, RecordMerger merger,
    long memoryBudget, Path spillDirectory, Optional<String> plainKeyField) {
  /** Rejects nulls. */
  LogMerge {
    Objects.requireNonNull(timeline, "timeline");
    Objects.requireNonNull(queryInstant, "queryInstant");
    Objects.requireNonNull(precombineField, "precombineField");
    Objects.requireNonNull(merger, "merger");
    Objects.requireNonNull(spillDirectory, "spillDirectory");
    Objects.requireNonNull(plainKeyField, "plainKeyField");
  }
}
