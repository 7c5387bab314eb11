package dev.sluice.internal.write;

import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import java.util.List;
import java.util.Optional;

/**
 * Average bytes per record, as Hudi's upsert partitioner estimates it: from the newest completed commit that
 * wrote more than {@code threshold × small-file limit} bytes, else the configured estimate.
 */
final class RecordSizeEstimator {
  private static final int MAX_COMMITS_SCANNED = 50;

  private RecordSizeEstimator() {
  }

  static long averageRecordSize(TimelineStore store, Timeline timeline, Config config) {
    long fallback = config.get(ConfigKeys.RECORD_SIZE_ESTIMATE);
    double threshold = config.get(ConfigKeys.RECORD_SIZE_THRESHOLD) * config.get(ConfigKeys.SMALL_FILE_LIMIT);
    // commit and replacecommit only, as Hudi's partitioner (getCommitAndReplaceTimeline): a deltacommit's log
    // appends measure Avro bytes, not base file bytes
    List<Instant> commits = timeline.completed()
        .filter(i -> i.action() == Action.COMMIT || i.action() == Action.REPLACECOMMIT).instants();
    int scanned = 0;
    for (int i = commits.size() - 1; i >= 0 && scanned < MAX_COMMITS_SCANNED; i--, scanned++) {
      Optional<CommitMetadata> md = store.readCommitMetadata(commits.get(i));
      if (md.isEmpty()) {
        continue;
      }
      long bytes = md.get().totalBytesWritten();
      long records = md.get().totalRecordsWritten();
      if (bytes > threshold && records > 0) {
        return Math.max(1, bytes / records);
      }
    }
    return Math.max(1, fallback);
  }
}
