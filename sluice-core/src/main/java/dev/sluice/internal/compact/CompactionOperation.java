package dev.sluice.internal.compact;

import dev.sluice.internal.fsview.FileGroupId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One file slice a compaction plan merges into a new base file ({@code HoodieCompactionOperation}, plan version 2:
 * file names, not paths).
 *
 * @param partitionPath relative partition path
 * @param fileId the file group's id
 * @param baseInstantTime the slice's base instant
 * @param dataFileName the slice's base file name; empty for a log-only slice
 * @param deltaFileNames the slice's log file names, in log order (oldest first)
 * @param metrics the figures the strategy chose by ({@link #TOTAL_LOG_FILES_SIZE}, {@link #TOTAL_IO_MB}, ...)
 */
public record CompactionOperation(String partitionPath, String fileId, String baseInstantTime,
    Optional<String> dataFileName, List<String> deltaFileNames, Map<String, Double> metrics) {
  /** Bytes read from the base file and the logs, in MiB ({@code CompactionStrategy.TOTAL_IO_READ_MB}). */
  public static final String TOTAL_IO_READ_MB = "TOTAL_IO_READ_MB";
  /** Bytes the new base file is expected to take, in MiB. */
  public static final String TOTAL_IO_WRITE_MB = "TOTAL_IO_WRITE_MB";
  /** Read plus write, in MiB; what {@code hoodie.compaction.target.io} bounds. */
  public static final String TOTAL_IO_MB = "TOTAL_IO_MB";
  /** Total bytes of the slice's log files (the key is Hudi's spelling). */
  public static final String TOTAL_LOG_FILES_SIZE = "TOTAL_LOG_FILES_SIZE";
  /** Number of the slice's log files. */
  public static final String TOTAL_LOG_FILES = "TOTAL_LOG_FILES";

  /** Copies the lists and maps (keeping their order) and rejects nulls. */
  public CompactionOperation {
    Objects.requireNonNull(partitionPath, "partitionPath");
    Objects.requireNonNull(fileId, "fileId");
    Objects.requireNonNull(baseInstantTime, "baseInstantTime");
    Objects.requireNonNull(dataFileName, "dataFileName");
    deltaFileNames = List.copyOf(deltaFileNames);
    metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
  }

  /** The file group. */
  public FileGroupId fileGroupId() {
    return new FileGroupId(partitionPath, fileId);
  }

  /** A metric, 0 if the plan does not carry it. */
  public double metric(String name) {
    Double v = metrics.get(name);
    return v == null ? 0 : v;
  }
}
