package dev.sluice.internal.timeline;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.table.TableConfig;
import java.util.Optional;

/**
 * Where a table's active timeline lives, how its files are named and how commit metadata is encoded: Hudi's timeline
 * layout 1 (table version 6: {@code .hoodie/<t>.<action>}, JSON commit metadata) or layout 2 (table versions 8 and
 * 9: {@code .hoodie/timeline/<requested>_<completion>.<action>}, Avro commit metadata, log files named after their
 * own delta commit). Chosen once per table from {@code hoodie.properties} ({@link #of(TableConfig)}); everything
 * that differs between the layouts is asked of it instead of testing the version.
 */
public sealed interface TimelineLayout permits LayoutV1, LayoutV2 {

  /** Layout 1: the timeline of a version-6 table, the one Sluice writes. */
  TimelineLayout V1 = new LayoutV1();

  /**
   * The layout of a table's {@code hoodie.properties}: version 6 → layout 1, versions 8 and 9 → layout 2. Any other
   * version is UNSUPPORTED, naming it.
   */
  static TimelineLayout of(TableConfig config) {
    return of(config, "table '" + config.name() + "'");
  }

  /** As {@link #of(TableConfig)}; an unsupported version's error names the table as {@code where}. */
  static TimelineLayout of(TableConfig config, String where) {
    int version = config.tableVersion();
    return switch (version) {
      case 6 -> V1;
      case 8, 9 -> new LayoutV2(version);
      default -> throw Errors.unsupported("Hudi table version " + version + " (" + where + ")",
          "Sluice reads table versions 6 (Hudi 0.14/0.15), 8 (Hudi 1.0) and 9 (Hudi 1.1/1.2), and writes version 6; "
              + "upgrade or downgrade the table with Hudi.");
    };
  }

  /** The table version this layout belongs to (6, 8 or 9). */
  int tableVersion();

  /** The folder of the active timeline: {@code <base>/.hoodie} (layout 1) or {@code <base>/.hoodie/timeline}. */
  String folder(String basePath);

  /** The instant a file of the timeline folder stands for, with its completion time if its name carries one. */
  Optional<InstantFile> parse(String fileName);

  /** The file name of an instant's state; a completed instant of layout 2 needs its completion time. */
  String fileName(Instant instant, Optional<String> completionTime);

  /** Decodes the content of a commit, deltacommit or replacecommit file (empty content: empty metadata). */
  CommitMetadata commitMetadata(byte[] content, String where);

  /**
   * True if a log file joins the file slice whose base instant is the latest not after its delta commit's completion
   * time (layout 2: logs are named after their own delta commit); false if the instant in its name is the slice's.
   */
  boolean slicesByCompletionTime();

  /**
   * Fails with UNSUPPORTED if Sluice cannot read this layout's archived timeline (layout 2 archives into an LSM tree
   * of Parquet files under {@code timeline/history}, not read yet).
   */
  void requireArchivedTimelineReadable();

  /**
   * Fails with UNSUPPORTED if incremental queries of this layout are not ranges of requested times (layout 2: Hudi
   * 1.x ranges them by completion time, which Sluice's incremental planner does not do yet).
   */
  void requireIncrementalByRequestedTime();

  /**
   * Fails with UNSUPPORTED, naming the table version, if Sluice cannot change a table of this layout: nothing may
   * write a layout-1 instant into a layout-2 timeline.
   */
  void requireWritable(String what);

  /**
   * One file of the timeline folder.
   *
   * @param instant the instant state it holds
   * @param completionTime the completion time in its name (layout 2, completed instants)
   */
  record InstantFile(Instant instant, Optional<String> completionTime) {
  }
}
