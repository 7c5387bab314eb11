package dev.sluice.internal.health;

import dev.sluice.api.Table;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import java.time.ZoneId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the health figures are computed from: the table type, its active timeline, the commit metadata of its
 * completed commits and a file-system view of the same timeline.
 *
 * @param tableType the table type
 * @param timeline the active timeline
 * @param commitMetadata commit metadata of completed commits, delta commits and replacecommits, by instant time
 * @param view the file-system view of {@code timeline}
 * @param timelineZone the time zone instant times are written in ({@code hoodie.table.timeline.timezone})
 */
public record HealthInput(TableType tableType, Timeline timeline, Map<String, CommitMetadata> commitMetadata,
    FileSystemView view, ZoneId timelineZone) {
  /** Copies the map, keeping its order. */
  public HealthInput {
    commitMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(commitMetadata));
  }

  /** Loads the timeline and every completed commit's metadata of {@code table} now. */
  public static HealthInput load(Table table) {
    Timeline timeline = new TimelineStore(table.storage(), table.location()).load();
    return load(table, FileSystemView.of(table.storage(), table.location(), timeline));
  }

  /**
   * The input for {@code view} of {@code table} (its timeline and listings are reused): reads the commit metadata of
   * the view's timeline.
   */
  public static HealthInput load(Table table, FileSystemView view) {
    TableConfig tc = table.config();
    TimelineStore store = new TimelineStore(table.storage(), table.location());
    Timeline timeline = view.timeline();
    Map<String, CommitMetadata> md = new LinkedHashMap<>();
    for (Instant i : timeline.commitsTimeline().completed().instants()) {
      Optional<CommitMetadata> m = store.readCommitMetadata(i);
      m.ifPresent(x -> md.put(i.time(), x));
    }
    return new HealthInput(tc.type(), timeline, md, view, tc.timelineTimezone().zoneId());
  }
}
