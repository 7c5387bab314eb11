package dev.sluice.interop;

import java.util.List;
import java.util.Optional;

/**
 * One latest file slice as Hudi's file-system view reports it.
 *
 * @param partition   relative partition path ("" when not partitioned)
 * @param fileId      file group id
 * @param baseInstant the slice's base instant time
 * @param baseFile    base file name, absent for a log-only slice
 * @param logFiles    log file names, oldest first
 */
public record OracleFileSlice(String partition, String fileId, String baseInstant, Optional<String> baseFile,
    List<String> logFiles) {

  /** Copies the log file list. */
  public OracleFileSlice {
    logFiles = List.copyOf(logFiles);
  }
}
