package dev.sluice.internal.fsview;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One version of a file group: an optional base file plus the log files written against it.
 *
 * @param id the file group
 * @param baseInstant the slice's base instant (base file commit time, or the log files' base instant)
 * @param baseFile the base file, absent for log-only slices
 * @param logFiles log files in read order (oldest first, {@link LogFile} order)
 */
public record FileSlice(FileGroupId id, String baseInstant, Optional<BaseFile> baseFile, List<LogFile> logFiles) {
  /** Sorts and copies the log files. */
  public FileSlice {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(baseInstant, "baseInstant");
    Objects.requireNonNull(baseFile, "baseFile");
    logFiles = logFiles.stream().sorted().toList();
  }

  /** The file id. */
  public String fileId() {
    return id.fileId();
  }

  /** The partition path. */
  public String partitionPath() {
    return id.partitionPath();
  }

  /** True if the slice has neither a base file nor log files (a slice opened by a compaction plan). */
  public boolean isEmpty() {
    return baseFile.isEmpty() && logFiles.isEmpty();
  }

  /** The newest log file. */
  public Optional<LogFile> latestLogFile() {
    return logFiles.isEmpty() ? Optional.empty() : Optional.of(logFiles.get(logFiles.size() - 1));
  }
}
