/**
 * The Avro-encoded timeline files (rollback plans and metadata, savepoint and restore records): {@code
 * AvroContainer} reads and writes one record in an Avro container with Hudi 0.15's schemas, kept as resources next
 * to it; {@code AvroValues} and {@code InstantInfo} help build and read those records; {@code RollbackPlan},
 * {@code RollbackMetadata}, {@code RestorePlan} and {@code RestoreMetadata} are those records as values. They live
 * here, not beside the actions that write them, because the metadata table's reader decodes them too (which instants
 * rollbacks and restores undid) and the actions depend on the metadata table's writer.
 */
package dev.sluice.internal.timeline.avro;
