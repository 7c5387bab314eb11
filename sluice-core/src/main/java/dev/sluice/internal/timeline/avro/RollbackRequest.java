package dev.sluice.internal.timeline.avro;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a rollback plan ({@code HoodieRollbackRequest}): delete files, or (for log files) append a rollback
 * command block to the file group's latest log.
 *
 * @param partitionPath relative partition path
 * @param fileId file group of a log append ("" for deletes, as Hudi writes it)
 * @param latestBaseInstant base instant of the slice whose log gets the command block ("" for deletes)
 * @param filesToBeDeleted absolute paths of files to delete
 * @param logBlocksToBeDeleted log files holding the failed blocks (name or path → size; Hudi writes 1 for an
 *     unknown size)
 */
public record RollbackRequest(String partitionPath, String fileId, String latestBaseInstant, List<String> filesToBeDeleted,
    Map<String, Long> logBlocksToBeDeleted) {

  /** Copies collections and rejects nulls. */
  public RollbackRequest {
    Objects.requireNonNull(partitionPath, "partitionPath");
    Objects.requireNonNull(fileId, "fileId");
    Objects.requireNonNull(latestBaseInstant, "latestBaseInstant");
    filesToBeDeleted = List.copyOf(filesToBeDeleted);
    logBlocksToBeDeleted = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(logBlocksToBeDeleted));
  }

  /** A request to delete one file. */
  public static RollbackRequest delete(String partitionPath, String path) {
    return new RollbackRequest(partitionPath, "", "", List.of(path), Map.of());
  }

  /** A request to append a rollback block to the latest log of slice (fileId, baseInstant). */
  public static RollbackRequest appendBlock(String partitionPath, String fileId, String baseInstant, Map<String, Long> logs) {
    return new RollbackRequest(partitionPath, fileId, baseInstant, List.of(), logs);
  }
}
