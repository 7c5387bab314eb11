package dev.sluice.internal.fsview;

import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Data file names ({@code FSUtils}, {@code HoodieLogFile}): making and parsing base and log file names. */
public final class FileNames {
  /** Write token of single-task writers ({@code HoodieLogFormat.DEFAULT_WRITE_TOKEN}). */
  public static final String DEFAULT_WRITE_TOKEN = "0-0-0";
  /** Roll-over write token ({@code HoodieLogFormat.UNKNOWN_WRITE_TOKEN}). */
  public static final String UNKNOWN_WRITE_TOKEN = "1-0-1";
  /** Base file extension. */
  public static final String PARQUET_EXTENSION = ".parquet";
  /** Base file extension of the metadata table. */
  public static final String HFILE_EXTENSION = ".hfile";
  /** Log file extension (without the dot, as in the name pattern). */
  public static final String LOG_EXTENSION = "log";
  /** Extension of archived-timeline files ({@code HoodieArchivedLogFile.ARCHIVE_EXTENSION}, without the dot). */
  public static final String ARCHIVE_EXTENSION = "archive";
  /** The first log version ({@code HoodieLogFile.LOGFILE_BASE_VERSION}). */
  public static final int FIRST_LOG_VERSION = 1;

  /** {@code FSUtils.LOG_FILE_PATTERN}; Sluice requires it to match the whole name. */
  static final Pattern LOG_FILE_PATTERN =
      Pattern.compile("^\\.(.+)_(.*)\\.(log|archive)\\.(\\d+)(_((\\d+)-(\\d+)-(\\d+))(.cdc)?)?");
  // fileId up to the first '_', then the write token, then the instant up to the extension
  private static final Pattern BASE_FILE_PATTERN =
      Pattern.compile("^([^_.][^_]*)_([^_]+)_(\\d+)(\\.parquet|\\.orc|\\.hfile)$");
  private static final Pattern FILE_ID_PATTERN = Pattern.compile("^(.+)-(\\d+)$");

  private FileNames() {
  }

  /** A new random file id prefix ({@code FSUtils.createNewFileIdPfx}). */
  public static String newFileIdPrefix() {
    return UUID.randomUUID().toString();
  }

  /** The {@code n}-th file id of a prefix: {@code <prefix>-<n>}. */
  public static String fileId(String prefix, int n) {
    return prefix + "-" + n;
  }

  /** The prefix of a file id ({@code <prefix>-<n>}), if it has that form. */
  public static Optional<String> fileIdPrefix(String fileId) {
    Matcher m = FILE_ID_PATTERN.matcher(fileId);
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** {@code <fileId>_<writeToken>_<instantTime>.parquet}. */
  public static String baseFileName(String fileId, String writeToken, String instantTime) {
    return fileId + "_" + writeToken + "_" + instantTime + PARQUET_EXTENSION;
  }

  /** {@code .<fileId>_<baseInstant>.log.<version>_<writeToken>}. */
  public static String logFileName(String fileId, String baseInstant, int version, String writeToken) {
    return logFileName(fileId, baseInstant, version, writeToken, LOG_EXTENSION);
  }

  /** {@code .<fileId>_<baseInstant>.<extension>.<version>_<writeToken>} ({@code archive} for archived timelines). */
  public static String logFileName(String fileId, String baseInstant, int version, String writeToken, String extension) {
    return "." + fileId + "_" + baseInstant + "." + extension + "." + version + "_" + writeToken;
  }

  /** The parts of a base file name, or empty if {@code name} is not one. */
  public static Optional<BaseFileName> parseBase(String name) {
    Matcher m = BASE_FILE_PATTERN.matcher(name);
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(new BaseFileName(m.group(1), m.group(2), m.group(3), m.group(4)));
  }

  /** The parts of a log (or archive) file name, or empty if {@code name} is not one. */
  public static Optional<LogFileName> parseLog(String name) {
    Matcher m = LOG_FILE_PATTERN.matcher(name);
    if (!m.matches()) {
      return Optional.empty();
    }
    int version;
    try {
      version = Integer.parseInt(m.group(4));
    } catch (NumberFormatException e) {
      // more digits than an int holds: no writer makes such a file
      return Optional.empty();
    }
    return Optional.of(new LogFileName(m.group(1), m.group(2), m.group(3), version,
        Optional.ofNullable(m.group(6)), m.group(10) == null ? "" : m.group(10)));
  }

  /**
   * True for names that may be data files (a base or log file name); false for {@code .crc} side files,
   * partition metadata files, {@code _}-prefixed files ({@code _SUCCESS}) and anything else.
   */
  public static boolean isDataFileCandidate(String name) {
    if (name.endsWith(".crc") || name.startsWith(".hoodie_partition_metadata") || name.startsWith("_")) {
      return false;
    }
    return parseBase(name).isPresent() || parseLog(name).filter(l -> l.extension().equals(LOG_EXTENSION)).isPresent();
  }
}
