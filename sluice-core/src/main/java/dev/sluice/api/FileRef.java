package dev.sluice.api;

import java.io.Serializable;

/**
 * A base file as a cluster engine's tasks are told about it (tagging looks keys up in it, a merge rewrites it).
 *
 * @param partitionPath relative partition path
 * @param fileId its file group
 * @param path its full path
 * @param fileName its name
 * @param instantTime the instant that wrote it
 * @param size its length in bytes
 */
public record FileRef(String partitionPath, String fileId, String path, String fileName, String instantTime,
    long size) implements Serializable {
  private static final long serialVersionUID = 1L;
}
