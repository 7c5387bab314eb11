package dev.sluice.api;

import java.util.List;
import java.util.Optional;

/**
 * A file slice: a base file (absent in a log-only slice) and the log files written on top of it.
 *
 * @param id the file group
 * @param baseInstant the instant that started the slice
 * @param baseFile the base file, if any
 * @param logFiles the log files in version order
 */
public record FileSliceInfo(FileGroupKey id, String baseInstant, Optional<BaseFileInfo> baseFile,
    List<LogFileInfo> logFiles) {
  /** Copies the list. */
  public FileSliceInfo {
    logFiles = List.copyOf(logFiles);
  }

  /** The partition path. */
  public String partitionPath() {
    return id.partitionPath();
  }

  /** The file group id. */
  public String fileId() {
    return id.fileId();
  }
}
