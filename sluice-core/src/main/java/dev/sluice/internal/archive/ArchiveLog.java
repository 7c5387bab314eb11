package dev.sluice.internal.archive;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogReader;
import dev.sluice.internal.log.LogWriter;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.State;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.generic.GenericRecord;

/**
 * The archived timeline's files: Hudi log files {@code .hoodie/archived/.commits_.archive.<n>_<token>} (file id
 * {@code commits}, empty base instant) of Avro data blocks of {@code HoodieArchivedMetaEntry} records, whose only
 * header is the schema ({@code HoodieTimelineArchiver.writeToFile}, {@code HoodieArchivedTimeline}).
 */
public final class ArchiveLog {
  /** The archive's file id ({@code HoodieArchivedTimeline.HOODIE_COMMIT_ARCHIVE_LOG_FILE_PREFIX}). */
  static final String FILE_ID = "commits";
  // HoodieArchivedTimeline.ARCHIVE_FILE_PATTERN
  private static final Pattern ARCHIVE_FILE = Pattern.compile("^\\.commits_\\.archive\\.([0-9]+).*");

  private final Storage storage;
  private final String folder;

  private ArchiveLog(Storage storage, String folder) {
    this.storage = storage;
    this.folder = folder;
  }

  /** The archive of the table at {@code basePath} (its folder from {@code hoodie.archivelog.folder}). */
  public static ArchiveLog of(Storage storage, String basePath) {
    String name = TableConfigStore.read(storage, basePath).archiveLogFolder();
    return new ArchiveLog(storage, TableLayout.archivedFolder(basePath, name));
  }

  /** The archive folder. */
  public String folder() {
    return folder;
  }

  /** The archive files, newest version first (the order Hudi reads them in); {@code .crc} side files excluded. */
  public List<FileInfo> files() {
    List<FileInfo> out = new ArrayList<>();
    try {
      for (FileInfo f : storage.list(folder)) {
        if (!f.directory() && !f.name().endsWith(".crc") && ARCHIVE_FILE.matcher(f.name()).matches()) {
          out.add(f);
        }
      }
    } catch (IOException e) {
      throw Errors.storage("list the archived timeline folder", folder, e);
    }
    out.sort(Comparator.comparingInt(ArchiveLog::version).reversed());
    return out;
  }

  private static int version(FileInfo f) {
    Matcher m = ARCHIVE_FILE.matcher(f.name());
    try {
      return m.matches() ? Integer.parseInt(m.group(1)) : 0;
    } catch (NumberFormatException e) {
      // more digits than an int: Hudi counts such a file as version 0 too
      return 0;
    }
  }

  /**
   * Appends entries in data blocks of at most {@code batch} records, to a new archive file version on storage that
   * cannot append (to the latest file on HDFS), and returns the path written.
   */
  String append(List<GenericRecord> entries, int batch) {
    try {
      storage.mkdirs(folder);
    } catch (IOException e) {
      throw Errors.storage("create the archived timeline folder", folder, e);
    }
    try (LogWriter w = LogWriter.builder(storage, folder, FILE_ID, "").extension(FileNames.ARCHIVE_EXTENSION)
        .writeToken(FileNames.UNKNOWN_WRITE_TOKEN).open()) {
      String path = w.currentPath();
      for (int from = 0; from < entries.size(); from += batch) {
        List<GenericRecord> block = entries.subList(from, Math.min(entries.size(), from + batch));
        path = w.appendBlocks(List.of(new DataBlock(Map.of(), ArchiveEntries.SCHEMA, block))).file().path();
      }
      return path;
    }
  }

  /**
   * Every archived instant state, newest file first; a state archived twice (an archival that crashed before
   * deleting the active files and ran again) is returned once. Blocks that are not data blocks (a block cut short by
   * a crash) are skipped, as Hudi does.
   */
  public List<ArchivedInstant> read() {
    List<ArchivedInstant> out = new ArrayList<>();
    Set<Instant> seen = new HashSet<>();
    for (FileInfo f : files()) {
      try (LogReader r = LogReader.open(storage, f.path())) {
        while (r.hasNext()) {
          LogBlock b = r.next();
          if (!(b instanceof DataBlock d)) {
            continue;
          }
          try (CloseableIterator<GenericRecord> it = d.records(ArchiveEntries.SCHEMA)) {
            while (it.hasNext()) {
              GenericRecord e = it.next();
              ArchivedInstant a = instant(e, f.path());
              if (seen.add(a.instant())) {
                out.add(a);
              }
            }
          }
        }
      }
    }
    out.sort(Comparator.comparing(ArchivedInstant::instant));
    return out;
  }

  private static ArchivedInstant instant(GenericRecord e, String where) {
    Object time = e.get("commitTime");
    Object action = e.get("actionType");
    Object state = e.get("actionState");
    if (time == null || action == null) {
      throw Errors.badTable(where, "an archived entry has no commitTime or actionType",
          "The archive file is damaged; move it out of the archive folder.");
    }
    Action a = Action.fromId(action.toString()).orElseThrow(() -> Errors.badTable(where,
        "an archived entry has the unknown action '" + action + "'", "The archive file is damaged."));
    State s;
    try {
      // very old archives have no state: they archived completed instants only
      s = state == null ? State.COMPLETED : State.valueOf(state.toString());
    } catch (IllegalArgumentException ex) {
      throw Errors.badTable(where, "an archived entry has the unknown state '" + state + "'",
          "The archive file is damaged.");
    }
    Object transition = e.get("stateTransitionTime");
    return new ArchivedInstant(new Instant(time.toString(), a, s), Optional.ofNullable(transition).map(Object::toString), e);
  }
}
