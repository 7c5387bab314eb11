package dev.sluice.internal.timeline;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.storage.StoragePaths;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Timeline layout 2 (table versions 8 and 9, Hudi 1.x): instant files in {@code .hoodie/timeline/}, a completed
 * instant named {@code <requested>_<completion>.<action>} (pending states keep the layout-1 names), commit metadata
 * as an Avro container. A completed file without a completion time (left by Hudi's upgrade from version 6) holds
 * JSON and has no known completion time here. Sluice writes commits, delta commits, rollbacks, compactions, cleans,
 * savepoints and restores into it (completion times taken as {@link #newCompletionTime} says) and archives it into the
 * LSM archived timeline, keeps its metadata table in Hudi 1.x's form, and repairs it (the repair asks this layout
 * for instant file names and the commit metadata codec).
 */
final class LayoutV2 implements TimelineLayout {
  /** The default {@code hoodie.timeline.path}. */
  static final String TIMELINE_FOLDER = "timeline";

  // InstantFileNameParserV2: requested time, "_" completion time, then the layout-1 remainder
  private static final Pattern COMPLETED = Pattern.compile("^(\\d+)_(\\d+)(\\.\\w+)$");

  private static final Set<Action> WRITTEN = EnumSet.of(Action.COMMIT, Action.DELTACOMMIT, Action.REPLACECOMMIT,
      Action.ROLLBACK, Action.COMPACTION, Action.CLEAN, Action.SAVEPOINT, Action.RESTORE);

  // compaction plans and clean plans/metadata are the same Avro records in 1.x (the compaction plan with one more
  // field), and both act on file slices, which the file-system view already forms by completion time; archival
  // writes the LSM archived timeline
  private static final Set<TableService> RUN = EnumSet.of(TableService.COMPACTION, TableService.CLEAN,
      TableService.ARCHIVAL);

  private final int tableVersion;
  private final ZoneId zone;

  LayoutV2(int tableVersion, ZoneId zone) {
    this.tableVersion = tableVersion;
    this.zone = zone;
  }

  @Override
  public int tableVersion() {
    return tableVersion;
  }

  @Override
  public String folder(String basePath) {
    return StoragePaths.join(TableLayout.metaFolder(basePath), TIMELINE_FOLDER);
  }

  @Override
  public Optional<InstantFile> parse(String fileName) {
    Matcher m = COMPLETED.matcher(fileName);
    if (m.matches()) {
      return Instant.parse(m.group(1) + m.group(3)).filter(Instant::isCompleted)
          .map(i -> new InstantFile(i, Optional.of(m.group(2))));
    }
    return Instant.parse(fileName).map(i -> new InstantFile(i, Optional.empty()));
  }

  @Override
  public String fileName(Instant instant, Optional<String> completionTime) {
    if (!instant.isCompleted() || completionTime.isEmpty()) {
      return instant.fileName();
    }
    return instant.time() + "_" + completionTime.get() + "." + instant.action().id();
  }

  @Override
  public CommitMetadata commitMetadata(byte[] content, String where) {
    return CommitMetadataAvro.read(content, where);
  }

  @Override
  public CommitMetadata commitMetadata(byte[] content, InstantFile file, String where) {
    // Hudi 1.x decides by the name, not the content: a legacy completed file is JSON, every other one Avro
    return legacy(file) ? CommitMetadataJson.read(content, where) : commitMetadata(content, where);
  }

  @Override
  public byte[] encode(CommitMetadata metadata, InstantFile file) {
    return legacy(file) ? metadata.toJson() : encode(metadata);
  }

  /** A completed file without a completion time in its name (left by Hudi's upgrade from version 6). */
  private static boolean legacy(InstantFile file) {
    return file.instant().isCompleted() && file.completionTime().isEmpty();
  }

  @Override
  public byte[] encode(CommitMetadata metadata) {
    return CommitMetadataAvro.write(metadata);
  }

  @Override
  public Optional<String> newCompletionTime(String latestSeen) {
    // Hudi 1.x waits out the clock skew under the lock; with the timeline listed under the lock the latest time
    // any writer recorded is known, so a time past it (and past the clock) orders the same way without the wait
    String now = InstantTimes.newInstantTime(zone);
    if (InstantTimes.isBefore(latestSeen, now)) {
      return Optional.of(now);
    }
    java.time.Instant next = InstantTimes.toTime(latestSeen, zone).plusMillis(1);
    return Optional.of(InstantTimes.format(next, zone));
  }

  @Override
  public String logFileInstant(String sliceBaseInstant, String writeInstant) {
    return writeInstant;
  }

  @Override
  public boolean slicesByCompletionTime() {
    return true;
  }

  @Override
  public boolean archivesToLsmTimeline() {
    return true;
  }

  @Override
  public boolean timeSemanticsOf1x() {
    return true;
  }

  @Override
  public boolean writesMetadataTable() {
    // Hudi 1.x's form of it: mdt.write.MetadataTableForm.Fresh, read by mdt.read.TrustRules' 1.x rules
    return true;
  }

  @Override
  public boolean runs(TableService service) {
    return RUN.contains(service);
  }

  @Override
  public void requireServices(String what) {
    throw Errors.unsupported(what + " on a Hudi table of version " + tableVersion,
        "Sluice writes (insert, upsert, delete, bulk insert), rolls back, compacts, cleans, archives, savepoints, "
            + "restores and repairs tables of versions 8 and 9 and keeps their metadata table's files partition, but "
            + "does not run clustering, log compaction or indexing on them: do that with Hudi 1.x.");
  }

  @Override
  public void requireWritable(Action action, String what) {
    if (!WRITTEN.contains(action)) {
      requireServices(what);
    }
  }

  @Override
  public String toString() {
    return "timeline layout 2 (table version " + tableVersion + ")";
  }
}
