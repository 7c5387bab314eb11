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

  /** Layout 1: the timeline of a version-6 table. */
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
      case 8, 9 -> new LayoutV2(version, config.timelineTimezone().zoneId());
      default -> throw Errors.unsupported("Hudi table version " + version + " (" + where + ")",
          "Sluice reads and writes table versions 6 (Hudi 0.14/0.15), 8 (Hudi 1.0) and 9 (Hudi 1.1/1.2); "
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
   * The content of a commit, deltacommit or replacecommit file, or of a write's inflight workload: Hudi's JSON
   * (layout 1) or an Avro container of Hudi 1.x's {@code HoodieCommitMetadata} (layout 2).
   */
  byte[] encode(CommitMetadata metadata);

  /**
   * Decodes the commit metadata in {@code file} as Hudi reads it by its name: {@link #commitMetadata(byte[], String)},
   * except for layout 2's completed files without a completion time (left by Hudi's upgrade from version 6), which
   * Hudi 1.x reads as JSON ({@code CommitMetadataSerDeV2}: legacy instants).
   */
  default CommitMetadata commitMetadata(byte[] content, InstantFile file, String where) {
    return commitMetadata(content, where);
  }

  /**
   * The content of the completed commit, deltacommit or replacecommit file {@code file} as Hudi reads it by its name:
   * {@link #encode(CommitMetadata)}, except for layout 2's completed files without a completion time (left by Hudi's
   * upgrade from version 6), which Hudi 1.x reads as JSON ({@code CommitMetadataSerDeV2}: legacy instants).
   */
  default byte[] encode(CommitMetadata metadata, InstantFile file) {
    return encode(metadata);
  }

  /**
   * The completion time of an instant completing now (layout 2 names completed files with it): a time of the table's
   * clock strictly after {@code latestSeen}, the latest requested or completion time in the timeline folder, so that
   * completion times only grow among writers that take the table lock around the completion; empty for layout 1.
   */
  Optional<String> newCompletionTime(String latestSeen);

  /**
   * The instant a log file written now by {@code writeInstant} into a slice based at {@code sliceBaseInstant} is named
   * after: the slice's (layout 1) or the write's own (layout 2, one log file per delta commit, rolled back by deleting
   * it, so it gets a CREATE marker rather than an APPEND one).
   */
  String logFileInstant(String sliceBaseInstant, String writeInstant);

  /**
   * True if a log file joins the file slice whose base instant is the latest not after its delta commit's completion
   * time (layout 2: logs are named after their own delta commit); false if the instant in its name is the slice's.
   */
  boolean slicesByCompletionTime();

  /**
   * True if this layout's archived timeline is Hudi 1.x's LSM tree of Parquet files under {@code timeline/history}
   * (layout 2, {@code timeline.lsm}); false for layout 1's archive log files in {@code .hoodie/archived}.
   */
  boolean archivesToLsmTimeline();

  /**
   * True if incremental queries and time travel follow Hudi 1.x's rules (layout 2): an incremental range is a range
   * of completion times, and time travel is refused at or after the first write still pending; false for version 6,
   * whose ranges are of requested times.
   */
  boolean timeSemanticsOf1x();

  /**
   * True if Sluice runs {@code service} on tables of this layout: every service on layout 1; compaction, clean and
   * archival on layout 2 (Hudi 1.x's plans and metadata, completed instants named with their completion time).
   */
  boolean runs(TableService service);

  /**
   * Fails with UNSUPPORTED, naming the table version and {@code what}, unless Sluice runs {@code service} on tables of
   * this layout ({@link #runs}).
   */
  default void requireService(TableService service, String what) {
    if (!runs(service)) {
      requireServices(what);
    }
  }

  /**
   * True if Sluice's changes keep this layout's metadata table: layout 1 in Hudi 0.15's form, layout 2 in Hudi 1.x's
   * ({@code mdt.write.MetadataTableForm}: its {@code files} partition; a record index is dropped there).
   */
  boolean writesMetadataTable();

  /**
   * Fails with UNSUPPORTED, naming the table version, if Sluice cannot run the table services other than compaction,
   * clean, archival, savepoint, restore and repair (clustering, log compaction, indexing) on a table of this layout: on
   * layout 2 it does not run them yet.
   */
  void requireServices(String what);

  /**
   * Fails with UNSUPPORTED, naming the table version, if Sluice does not write instant files of {@code action} into a
   * timeline of this layout (layout 2: commits, delta commits, replace commits, rollbacks, compactions, cleans,
   * savepoints and restores
   * only), so that no
   * instant of a service Sluice does not run on this layout lands in its timeline.
   */
  void requireWritable(Action action, String what);

  /**
   * One file of the timeline folder.
   *
   * @param instant the instant state it holds
   * @param completionTime the completion time in its name (layout 2, completed instants)
   */
  record InstantFile(Instant instant, Optional<String> completionTime) {
  }
}
