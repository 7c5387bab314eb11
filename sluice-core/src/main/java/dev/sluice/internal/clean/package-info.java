/**
 * The cleaner: deletes the file versions that no retained instant, pending compaction, savepoint or recent reader
 * needs, through {@code clean} instants in Hudi 0.15's Avro form. Entry points: {@link dev.sluice.internal.clean.Cleaner}
 * (run), {@link dev.sluice.internal.clean.CleanPlanner} (what to delete), {@link dev.sluice.internal.clean.CleanAvro} (the files).
 */
package dev.sluice.internal.clean;
