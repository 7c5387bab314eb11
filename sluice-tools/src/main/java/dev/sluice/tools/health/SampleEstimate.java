package dev.sluice.tools.health;

import java.util.OptionalDouble;

/**
 * What upserting a sample of records would cost, from tagging it against the table's index
 * ({@link dev.sluice.api.TableInspection#previewUpsert}): Copy-on-Write rewrites the base file of every file group the sample
 * updates or deletes in; Merge-on-Read appends the changed rows (Avro, meta fields included) plus one block header
 * (the schema) per block to each such group's log.
 *
 * @param records sample records after combining duplicate keys
 * @param inserts records with new keys (the same cost on both types)
 * @param updates records updating existing keys
 * @param deletes records deleting existing keys
 * @param fileGroupsTouched existing file groups the sample changes
 * @param fileGroups file groups in the table
 * @param cowBytesRewritten bytes of the base files a Copy-on-Write upsert would rewrite
 * @param morBytesAppended estimated bytes a Merge-on-Read upsert would append
 * @param rewriteRatio the former over the latter
 * @param changedRecordsPerFileGroup updates and deletes per file group touched
 */
public record SampleEstimate(long records, long inserts, long updates, long deletes, int fileGroupsTouched,
    int fileGroups, long cowBytesRewritten, long morBytesAppended, OptionalDouble rewriteRatio,
    OptionalDouble changedRecordsPerFileGroup) {
}
