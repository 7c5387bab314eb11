/**
 * The life of one write on the timeline ({@code WriteTransaction}): begin (refuse during a restore, roll back
 * failed writes under the {@code FailedWritesPolicy}, start the heartbeat and create the requested instant), then,
 * after the write handles ran, publish: under the lock when optimistic concurrency control is on, check the
 * heartbeat and for conflicts with writes that completed meanwhile ({@code ConflictDetector}), create the completed
 * file (the commit point) and remove the markers; on failure, roll the instant back. {@code TableActions} runs
 * rollback, savepoint and restore under the same lock.
 */
package dev.sluice.internal.txn;
