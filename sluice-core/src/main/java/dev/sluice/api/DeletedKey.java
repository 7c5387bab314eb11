package dev.sluice.api;

import java.util.Optional;

/**
 * One key of a log file's delete block.
 *
 * @param recordKey the record key
 * @param partitionPath its partition path
 * @param orderingValue the ordering (precombine) value of the delete, if it has one
 */
public record DeletedKey(String recordKey, String partitionPath, Optional<Object> orderingValue) {
}
