/**
 * The read path. A {@code Scan} (an immutable builder of {@code ScanOptions}) is planned into a {@code ScanPlan}:
 * {@code SnapshotPlanner} cuts the timeline at the as-of instant, asks the file-system view for the latest slices
 * and prunes partitions by the filter; {@code IncrementalPlanner} reads only the file groups the range's commits
 * wrote ({@code RangeWrites}) on version-6 tables, {@code CompletionTimeIncremental} the files written by the instants
 * completed in the range on versions 8 and 9. The plan reads base files directly (Copy-on-Write, read-optimized) or through {@code
 * MergedSliceReader} (Merge-on-Read snapshot: the slice's log records merged into its base rows), projects and
 * filters the rows, and reads slices on several threads when asked. {@code ScanPlanner} is what a {@code Scan} plans
 * with: the plan, or the rows' schema alone (without listing files).
 */
package dev.sluice.internal.read;
