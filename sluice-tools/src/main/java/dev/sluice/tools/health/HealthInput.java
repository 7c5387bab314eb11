package dev.sluice.tools.health;

import dev.sluice.api.CommitInfo;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.TableType;
import java.time.ZoneId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the health figures are computed from: the table type, a look at the table (its active timeline and the file
 * listing of that timeline) and the commit metadata of its completed commits.
 *
 * @param tableType the table type
 * @param table the inspection the timeline and file listing come from
 * @param commitMetadata commit metadata of completed commits, delta commits and replacecommits, by instant time
 * @param timelineZone the time zone instant times are written in ({@code hoodie.table.timeline.timezone})
 */
public record HealthInput(TableType tableType, TableInspection table, Map<String, CommitInfo> commitMetadata,
    ZoneId timelineZone) {
  /** Copies the map, keeping its order. */
  public HealthInput {
    commitMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(commitMetadata));
  }

  /** Loads the timeline and every completed commit's metadata of {@code table} now. */
  public static HealthInput load(Table table) {
    return load(table.inspect());
  }

  /** The input for {@code inspection} (its timeline and listings are reused): reads the commit metadata. */
  public static HealthInput load(TableInspection inspection) {
    return new HealthInput(inspection.tableType(), inspection, inspection.completedCommits(), inspection.timelineZone());
  }
}
