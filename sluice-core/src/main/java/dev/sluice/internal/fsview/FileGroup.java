package dev.sluice.internal.fsview;

import dev.sluice.internal.timeline.InstantTimes;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A file group's visible slices, newest first.
 *
 * @param id the file group
 * @param slices visible slices by base instant, newest first
 */
public record FileGroup(FileGroupId id, List<FileSlice> slices) {
  /** Copies the slices. */
  public FileGroup {
    Objects.requireNonNull(id, "id");
    slices = List.copyOf(slices);
  }

  /** The newest slice. */
  public Optional<FileSlice> latestSlice() {
    return slices.isEmpty() ? Optional.empty() : Optional.of(slices.get(0));
  }

  /** The newest base file. */
  public Optional<BaseFile> latestBaseFile() {
    for (FileSlice s : slices) {
      if (s.baseFile().isPresent()) {
        return s.baseFile();
      }
    }
    return Optional.empty();
  }

  /** The newest slice whose base instant is strictly before {@code time}. */
  public Optional<FileSlice> latestSliceBefore(String time) {
    for (FileSlice s : slices) {
      if (InstantTimes.isBefore(s.baseInstant(), time)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /** All base files, newest first. */
  public List<BaseFile> baseFiles() {
    return slices.stream().flatMap(s -> s.baseFile().stream()).toList();
  }
}
