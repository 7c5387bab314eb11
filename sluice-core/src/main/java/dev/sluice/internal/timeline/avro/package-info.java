/**
 * The Avro-encoded timeline files (rollback plans and metadata, savepoint and restore records): {@code
 * AvroMetadata} reads and writes one record in an Avro container with Hudi 0.15's schemas, kept as resources next
 * to it; {@code AvroValues} and {@code InstantInfo} help build and read those records.
 */
package dev.sluice.internal.timeline.avro;
