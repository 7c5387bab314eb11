package dev.sluice.internal.timeline;

import dev.sluice.internal.table.TableLayout;
import java.util.Optional;

/** Timeline layout 1 (table version 6): instant files directly in {@code .hoodie/}, JSON commit metadata. */
final class LayoutV1 implements TimelineLayout {

  LayoutV1() {
  }

  @Override
  public int tableVersion() {
    return 6;
  }

  @Override
  public String folder(String basePath) {
    return TableLayout.metaFolder(basePath);
  }

  @Override
  public Optional<InstantFile> parse(String fileName) {
    return Instant.parse(fileName).map(i -> new InstantFile(i, Optional.empty()));
  }

  @Override
  public String fileName(Instant instant, Optional<String> completionTime) {
    return instant.fileName();
  }

  @Override
  public CommitMetadata commitMetadata(byte[] content, String where) {
    return CommitMetadataJson.read(content, where);
  }

  @Override
  public byte[] encode(CommitMetadata metadata) {
    return CommitMetadataJson.write(metadata);
  }

  @Override
  public Optional<String> newCompletionTime(String latestSeen) {
    return Optional.empty();
  }

  @Override
  public String logFileInstant(String sliceBaseInstant, String writeInstant) {
    return sliceBaseInstant;
  }

  @Override
  public boolean slicesByCompletionTime() {
    return false;
  }

  @Override
  public boolean archivesToLsmTimeline() {
    // the archive log files under .hoodie/<hoodie.archivelog.folder>
    return false;
  }

  @Override
  public boolean timeSemanticsOf1x() {
    // version 6: incremental ranges are requested instant times
    return false;
  }

  @Override
  public boolean writesMetadataTable() {
    return true;
  }

  @Override
  public boolean runs(TableService service) {
    return true;
  }

  @Override
  public void requireServices(String what) {
    // every table service runs on version-6 tables
  }

  @Override
  public void requireWritable(Action action, String what) {
    // every action of version 6
  }

  @Override
  public String toString() {
    return "timeline layout 1 (table version 6)";
  }
}
