package dev.sluice.api;

import java.util.Optional;

/**
 * One completed clean.
 *
 * @param startCleanTime the clean's instant time
 * @param totalFilesDeleted files deleted
 * @param failedDeletes files the clean could not delete
 * @param earliestCommitToRetain the earliest commit the clean kept, if its policy names one
 */
public record CleanInfo(String startCleanTime, int totalFilesDeleted, int failedDeletes,
    Optional<String> earliestCommitToRetain) {
}
