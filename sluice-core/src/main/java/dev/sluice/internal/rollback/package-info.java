/**
 * Rollback as Hudi 0.15 does it: {@code RollbackPlanner} decides what undoes an instant (from its markers when
 * pending, from a listing when completed), {@code Rollbacks} writes the {@code <ts>.rollback.requested} plan and
 * {@code RollbackExecutor} carries it out (files deleted, rollback command blocks appended to logs) before the
 * completed {@code <ts>.rollback} records its metadata ({@code timeline.avro.RollbackMetadata}). Writes call it
 * first to undo failed writes; restore and {@code sluice rollback} call it directly.
 */
package dev.sluice.internal.rollback;
