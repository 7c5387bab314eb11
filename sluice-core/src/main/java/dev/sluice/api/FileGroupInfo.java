package dev.sluice.api;

import java.util.List;

/**
 * A file group and its file slices, oldest first.
 *
 * @param id the file group
 * @param slices its slices
 */
public record FileGroupInfo(FileGroupKey id, List<FileSliceInfo> slices) {
  /** Copies the list. */
  public FileGroupInfo {
    slices = List.copyOf(slices);
  }
}
