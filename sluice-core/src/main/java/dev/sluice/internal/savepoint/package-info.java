/**
 * Savepoints and restore: {@code Savepoints} marks a completed commit whose files the cleaner must keep ({@code
 * <ts>.savepoint}, with {@code SavepointMetadata}), and {@code Restores} rolls back every write after a savepoint,
 * newest first, under a {@code <ts>.restore} instant ({@code timeline.avro.RestorePlan} and {@code RestoreMetadata}).
 */
package dev.sluice.internal.savepoint;
