package dev.sluice.internal.archive;

import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * One state of one instant on the archived timeline: a {@code HoodieArchivedMetaEntry} record.
 *
 * @param instant time, action and state (a completed compaction is its commit)
 * @param stateTransitionTime when the state file was written, as an instant time, if recorded
 * @param entry the whole record, with the state file's content in the field for its action
 */
public record ArchivedInstant(Instant instant, Optional<String> stateTransitionTime, GenericRecord entry) {
  /** Rejects nulls. */
  public ArchivedInstant {
    Objects.requireNonNull(instant, "instant");
    Objects.requireNonNull(stateTransitionTime, "stateTransitionTime");
    Objects.requireNonNull(entry, "entry");
  }

  /**
   * The commit metadata of an archived commit, deltacommit or replacecommit, read as Hudi's archived timeline does:
   * the Avro record's JSON form parsed as commit metadata. Empty for other actions and states.
   */
  public Optional<CommitMetadata> commitMetadata() {
    if (!instant.isCompleted()) {
      return Optional.empty();
    }
    String field = switch (instant.action()) {
      case COMMIT, DELTACOMMIT -> "hoodieCommitMetadata";
      case REPLACECOMMIT -> "hoodieReplaceCommitMetadata";
      default -> null;
    };
    if (field == null || entry.get(field) == null) {
      return Optional.empty();
    }
    return Optional.of(CommitMetadata.fromJson(entry.get(field).toString().getBytes(StandardCharsets.UTF_8)));
  }
}
