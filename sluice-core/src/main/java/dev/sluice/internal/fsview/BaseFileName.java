package dev.sluice.internal.fsview;

/**
 * The parts of a base file name {@code <fileId>_<writeToken>_<instantTime><extension>}.
 *
 * @param fileId file id
 * @param writeToken write token, e.g. {@code 0-0-0}
 * @param instantTime the instant that wrote the file
 * @param extension e.g. {@code .parquet}
 */
public record BaseFileName(String fileId, String writeToken, String instantTime, String extension) {
  /** The file name these parts make. */
  public String fileName() {
    return fileId + "_" + writeToken + "_" + instantTime + extension;
  }
}
