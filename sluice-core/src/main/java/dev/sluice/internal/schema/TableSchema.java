package dev.sluice.internal.schema;

import dev.sluice.internal.util.ParsedSchemas;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.storage.Storage;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;

/** Where a table's schema comes from ({@code TableSchemaResolver}): the latest commit that recorded one. */
public final class TableSchema {
  private TableSchema() {
  }

  /**
   * The table schema without meta fields: the schema of the latest completed commit that recorded one, else the
   * schema given at creation ({@link TableConfig#CREATE_SCHEMA}).
   */
  public static Schema resolve(Storage storage, String basePath, Timeline timeline, TableConfig tc) {
    TimelineStore store = new TimelineStore(storage, basePath, timeline.layout()).knowing(timeline);
    List<Instant> commits = timeline.commitsTimeline().completed().instants();
    for (int i = commits.size() - 1; i >= 0; i--) {
      Optional<String> s = store.readCommitMetadata(commits.get(i)).flatMap(CommitMetadata::schema)
          .filter(x -> !x.isBlank());
      if (s.isPresent()) {
        return MetaFields.withoutMetaFields(ParsedSchemas.parse(s.get()));
      }
    }
    return tc.get(TableConfig.CREATE_SCHEMA).map(s -> MetaFields.withoutMetaFields(ParsedSchemas.parse(s)))
        .orElseThrow(() -> Errors.badTable(basePath, "the table has no schema yet (no commit and no "
            + TableConfig.CREATE_SCHEMA + ")", "Write to it with a schema first."));
  }
}
