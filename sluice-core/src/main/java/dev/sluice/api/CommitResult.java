package dev.sluice.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a write did. A write whose input held no records commits nothing (no instant on the timeline): its result has
 * {@link #committed()} false, an empty {@link #instantTime()} and no files.
 *
 * @param instantTime the instant of the commit, or {@code ""} when nothing was committed
 * @param operation the operation
 * @param files one entry per file written
 * @param outcome what the write received and did not apply, and why
 */
public record CommitResult(String instantTime, WriteOperation operation, List<FileWriteResult> files,
    WriteOutcome outcome) {
  /** Copies the file list. */
  public CommitResult {
    Objects.requireNonNull(instantTime, "instantTime");
    Objects.requireNonNull(outcome, "outcome");
    files = List.copyOf(files);
  }

  /** The result of a write that committed nothing: its input held no records. */
  public static CommitResult nothingCommitted(WriteOperation operation, Optional<String> orderingField) {
    return new CommitResult("", operation, List.of(), new WriteOutcome(0, 0, 0, 0, 0, orderingField));
  }

  /** False when the write committed nothing (its input held no records); then there is no instant. */
  public boolean committed() {
    return !instantTime.isEmpty();
  }

  /** The instant of the commit, empty when nothing was committed. */
  public Optional<String> instant() {
    return committed() ? Optional.of(instantTime) : Optional.empty();
  }

  /** Records inserted. */
  public long inserted() {
    return files.stream().mapToLong(FileWriteResult::numInserts).sum();
  }

  /** Records updated. */
  public long updated() {
    return files.stream().mapToLong(FileWriteResult::numUpdates).sum();
  }

  /** Records deleted. */
  public long deleted() {
    return files.stream().mapToLong(FileWriteResult::numDeletes).sum();
  }

  /** Bytes of the files written. */
  public long bytesWritten() {
    return files.stream().mapToLong(FileWriteResult::fileSize).sum();
  }
}
