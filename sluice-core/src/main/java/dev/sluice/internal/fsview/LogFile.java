package dev.sluice.internal.fsview;

import java.util.Comparator;

/**
 * A log file of a file slice. Natural order is Hudi's {@code LogFileComparator}: base instant, version, write
 * token (absent first), then suffix; scanners read log files in this order.
 *
 * @param path full path
 * @param fileName file name
 * @param fileId file id
 * @param baseInstant base instant of the slice
 * @param version log version
 * @param writeToken write token ("" if the name has none)
 * @param size size in bytes
 */
public record LogFile(String path, String fileName, String fileId, String baseInstant, int version, String writeToken,
                      long size) implements Comparable<LogFile> {
  private static final Comparator<LogFile> ORDER = Comparator.comparing(LogFile::baseInstant)
      .thenComparingInt(LogFile::version)
      .thenComparing(LogFile::writeToken)
      .thenComparing(LogFile::suffix);

  /** {@code .cdc} for CDC logs, otherwise "". */
  public String suffix() {
    return FileNames.parseLog(fileName).map(LogFileName::suffix).orElse("");
  }

  @Override
  public int compareTo(LogFile o) {
    return ORDER.compare(this, o);
  }
}
