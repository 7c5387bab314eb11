/**
 * How two versions of one record key are reconciled: {@code MergeMode} (event-time or commit-time ordering,
 * recorded as Hudi's payload class), {@code Ordering} (precombine values compared as Hudi's payloads compare them),
 * {@code DeleteFlag} ({@code _hoodie_is_deleted}) and {@code RecordMerger}, the payloads' merge rules in one place.
 * Used by the write path (combining a batch, Copy-on-Write merges), the log scan and compaction.
 */
package dev.sluice.internal.merge;
