/**
 * Hudi's log format for Merge-on-Read file slices. On the write path {@code LogWriter} appends blocks (Avro or
 * Parquet {@code DataBlock}s, {@code DeleteBlock}s, rollback {@code CommandBlock}s) to the slice's current log
 * file, encoded by {@code BlockEncoder}. On the read path {@code LogReader} reads a file's blocks forward (skipping
 * a {@code CorruptBlock}) and {@code LogScanner} merges a slice's blocks into the latest state per record key, held
 * in {@code MergedLogRecords} (in memory, or spilling past the budget) for the snapshot read and compaction. {@code
 * LogDump} describes a file's blocks for {@code sluice logs}.
 */
package dev.sluice.internal.log;
