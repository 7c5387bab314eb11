package dev.sluice.write;

import dev.sluice.error.Errors;
import dev.sluice.fsview.FileNames;
import dev.sluice.fsview.LogFileName;
import dev.sluice.log.CommandBlock;
import dev.sluice.log.CorruptBlock;
import dev.sluice.log.LogBlock;
import dev.sluice.log.LogReader;
import dev.sluice.log.LogWriter;
import dev.sluice.marker.IOType;
import dev.sluice.marker.Marker;
import dev.sluice.marker.Markers;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.timeline.Instant;
import dev.sluice.timeline.TimelineStore;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Removes what a failed, never-completed write left behind: every file its markers name, the markers
 * themselves, then its timeline files (last, so a crash in between leaves the instant for the next cleanup).
 *
 * <p>Log files ({@code APPEND} markers) are handled as Hudi's marker-based rollback does: where the storage cannot
 * append (local disk, object stores) every append of the write made a new log version, which is deleted; where it
 * can (HDFS) the write's blocks may sit in a log file holding committed blocks too, so a rollback command block
 * naming the failed instant is appended to the slice's log instead. Readers drop the failed blocks either way:
 * their instant never completes.
 */
final class FailedWriteCleaner {
  private final Storage storage;
  private final String basePath;

  FailedWriteCleaner(Storage storage, String basePath) {
    this.storage = storage;
    this.basePath = basePath;
  }

  void clean(Instant instant, Markers markers) {
    Set<String> rolledBackSlices = new HashSet<>();
    for (Marker m : markers.list()) {
      String path = StoragePaths.join(basePath, m.relativeFilePath());
      Optional<LogFileName> log = m.ioType() == IOType.APPEND ? FileNames.parseLog(m.fileName()) : Optional.empty();
      if (log.isPresent() && storage.supportsAppend() && !log.get().baseInstant().equals(instant.time())) {
        String slice = m.partitionPath() + '/' + log.get().fileId() + '_' + log.get().baseInstant();
        if (rolledBackSlices.add(slice)) {
          appendRollback(m.partitionPath(), log.get(), instant.time());
        }
        continue;
      }
      if (log.isPresent() && !onlyBlocksOf(path, instant.time())) {
        // the file holds another instant's blocks (a concurrent writer took the name): keep it; the failed
        // blocks are never read because their instant does not complete
        continue;
      }
      try {
        storage.delete(path);
      } catch (IOException e) {
        throw Errors.storage("delete file of failed write", path, e);
      }
    }
    markers.deleteAll();
    new TimelineStore(storage, basePath).deleteInstantFiles(instant);
  }

  /**
   * Appends a rollback command block for {@code failed} to the latest log file of the slice. Its
   * {@code INSTANT_TIME} is the latest instant on the timeline, which Hudi's rollback uses too; here that is the
   * failed instant itself (its files are deleted only after this).
   */
  private void appendRollback(String partition, LogFileName log, String failed) {
    String dir = StoragePaths.join(basePath, partition);
    try (LogWriter writer = LogWriter.builder(storage, dir, log.fileId(), log.baseInstant())
        .writeToken(FileNames.UNKNOWN_WRITE_TOKEN).open()) {
      writer.appendBlocks(List.of(CommandBlock.rollback(failed, failed)));
    }
  }

  /** True if every readable block of the log file was written by {@code instant} (or is damaged). */
  private boolean onlyBlocksOf(String path, String instant) {
    try {
      if (storage.info(path).isEmpty()) {
        return true;
      }
    } catch (IOException e) {
      throw Errors.storage("check file of failed write", path, e);
    }
    try (LogReader reader = LogReader.open(storage, path)) {
      while (reader.hasNext()) {
        LogBlock b = reader.next();
        if (!(b instanceof CorruptBlock) && !instant.equals(b.instantTime().orElse(null))) {
          return false;
        }
      }
    }
    return true;
  }
}
