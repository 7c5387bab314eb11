/**
 * The cleaner: deletes the file versions that no retained instant, pending compaction, savepoint or recent reader
 * needs, through {@code clean} instants in Hudi 0.15's Avro form. Entry points: {@link dev.sluice.clean.Cleaner}
 * (run), {@link dev.sluice.clean.CleanPlanner} (what to delete), {@link dev.sluice.clean.CleanAvro} (the files).
 */
package dev.sluice.clean;
