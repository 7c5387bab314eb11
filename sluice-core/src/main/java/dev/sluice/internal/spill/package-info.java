/**
 * Memory-bounded structures that spill to local disk: {@link dev.sluice.internal.spill.SpillableMap}, the record-key map
 * that holds a Merge-on-Read file slice's log records while its base file streams past, and
 * {@link dev.sluice.internal.spill.ExternalSorter}, a stable sort of key/value pairs larger than memory. Values are
 * written by a {@link dev.sluice.internal.spill.RecordSerializer} ({@link dev.sluice.internal.spill.AvroRecordSerializer} for
 * Avro records, composable for small value records). Spill files always live on a local directory, whatever
 * the table's storage, and are deleted on close.
 */
package dev.sluice.internal.spill;
