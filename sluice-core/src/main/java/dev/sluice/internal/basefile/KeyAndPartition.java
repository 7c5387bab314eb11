package dev.sluice.internal.basefile;

/**
 * The record key and partition path meta columns of one row.
 *
 * @param key {@code _hoodie_record_key}
 * @param partitionPath {@code _hoodie_partition_path} ({@code ""} for non-partitioned tables, and for rows without one)
 */
public record KeyAndPartition(String key, String partitionPath) {
}
