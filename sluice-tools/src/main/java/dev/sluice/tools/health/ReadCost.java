package dev.sluice.tools.health;

import java.util.OptionalDouble;

/**
 * What a snapshot query of the whole table reads beyond its base files, summed over the latest slices.
 *
 * @param baseBytes bytes of base files
 * @param logBytes bytes of log files
 * @param baseRecords records in base files (those whose writing commit is on the active timeline)
 * @param logRecords log rows and deletes since each slice's base instant
 * @param readAmplification (base + log bytes) / base bytes, if there are base bytes
 * @param logRecordsPerBaseRecord log records / base records, if there are base records
 */
public record ReadCost(long baseBytes, long logBytes, long baseRecords, long logRecords, OptionalDouble readAmplification,
    OptionalDouble logRecordsPerBaseRecord) {
}
