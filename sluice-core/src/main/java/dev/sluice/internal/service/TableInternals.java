package dev.sluice.internal.service;

import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.api.Table;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.compact.Compaction;
import dev.sluice.internal.compact.CompactionSettings;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.timeline.TimelineStore;

/**
 * The engine's view of a {@link Table} handle, which the public API does not hand out: its configuration, timeline,
 * file-system view, compaction and actions, made from the handle's storage, location and options. For engine code and
 * tests that work below the API.
 */
public final class TableInternals {
  private TableInternals() {
  }

  /** The table's {@code hoodie.properties}, read now. */
  public static TableConfig config(Table table) {
    return TableConfigStore.read(table.storage(), table.location());
  }

  /** The active timeline, loaded now. */
  public static Timeline timeline(Table table) {
    return new TimelineStore(table.storage(), table.location(), TimelineLayout.of(config(table))).load();
  }

  /** The file-system view of the latest timeline. */
  public static FileSystemView fileSystemView(Table table) {
    return FileSystemView.of(table.storage(), table.location(), timeline(table));
  }

  /** The engine's compaction of the table. */
  public static Compaction compaction(Table table) {
    return Compaction.of(table.storage(), table.location(), CompactionSettings.from(table.options()),
        CommitSettings.from(table.options()), () -> BaseFileWriterOptions.from(table.options()));
  }

  /** Rollback, savepoint and restore, returning the engine's metadata. */
  public static TableActions actions(Table table) {
    return new TableActions(table.storage(), table.location(), CommitSettings.from(table.options()));
  }
}
