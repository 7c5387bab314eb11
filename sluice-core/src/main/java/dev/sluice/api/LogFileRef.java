package dev.sluice.api;

import java.io.Serializable;

/**
 * A log file of a file slice, as a cluster engine's append task is told about it.
 *
 * @param path its full path
 * @param fileName its name
 * @param baseInstant the instant in its name
 * @param version its version
 * @param writeToken its write token ("" if the name has none)
 * @param size its length in bytes
 */
public record LogFileRef(String path, String fileName, String baseInstant, int version, String writeToken, long size)
    implements Serializable {
  private static final long serialVersionUID = 1L;
}
