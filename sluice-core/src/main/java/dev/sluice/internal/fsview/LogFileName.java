package dev.sluice.internal.fsview;

import java.util.Optional;

/**
 * The parts of a log file name {@code .<fileId>_<baseInstant>.<extension>.<version>[_<writeToken>[.cdc]]}.
 *
 * @param fileId file id
 * @param baseInstant base instant of the file slice the log belongs to
 * @param extension {@code log} (or {@code archive} for archived-timeline files)
 * @param version log version, from 1
 * @param writeToken write token, if present
 * @param suffix {@code .cdc} for CDC logs, otherwise ""
 */
public record LogFileName(String fileId, String baseInstant, String extension, int version,
                          Optional<String> writeToken, String suffix) {
  /** The file name these parts make. */
  public String fileName() {
    return "." + fileId + "_" + baseInstant + "." + extension + "." + version
        + writeToken.map(t -> "_" + t).orElse("") + suffix;
  }
}
