package dev.sluice.internal.timeline;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.storage.StoragePaths;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Timeline layout 2 (table versions 8 and 9, Hudi 1.x): instant files in {@code .hoodie/timeline/}, a completed
 * instant named {@code <requested>_<completion>.<action>} (pending states keep the layout-1 names), commit metadata
 * as an Avro container. A completed file without a completion time (left by Hudi's upgrade from version 6) holds
 * JSON and has no known completion time here. Sluice reads this layout only.
 */
final class LayoutV2 implements TimelineLayout {
  /** The default {@code hoodie.timeline.path}. */
  static final String TIMELINE_FOLDER = "timeline";

  // InstantFileNameParserV2: requested time, "_" completion time, then the layout-1 remainder
  private static final Pattern COMPLETED = Pattern.compile("^(\\d+)_(\\d+)(\\.\\w+)$");

  private final int tableVersion;

  LayoutV2(int tableVersion) {
    this.tableVersion = tableVersion;
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
  public boolean slicesByCompletionTime() {
    return true;
  }

  @Override
  public void requireArchivedTimelineReadable() {
    throw Errors.unsupported("The archived timeline (.hoodie/timeline/history) of a Hudi table of version "
        + tableVersion, "Sluice does not read Hudi 1.x's LSM archive yet; list the active timeline, or use Hudi 1.x.");
  }

  @Override
  public void requireIncrementalByRequestedTime() {
    throw Errors.unsupported("An incremental query on a Hudi table of version " + tableVersion,
        "Hudi 1.x ranges them by completion time, which Sluice does not do yet; use a snapshot or time-travel "
            + "query, or Hudi 1.x.");
  }

  @Override
  public void requireWritable(String what) {
    throw Errors.unsupported(what + " on a Hudi table of version " + tableVersion,
        "Sluice reads table versions 8 and 9 (Hudi 1.x) but does not write them yet: write, compact, clean, archive, "
            + "roll back or restore this table with Hudi 1.x, or keep Sluice's tables at version 6.");
  }

  @Override
  public String toString() {
    return "timeline layout 2 (table version " + tableVersion + ")";
  }
}
