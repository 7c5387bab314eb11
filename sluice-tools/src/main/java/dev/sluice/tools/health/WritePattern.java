package dev.sluice.tools.health;

import java.util.OptionalDouble;

/**
 * The write pattern of a table's recent commits, and what the same changes cost on each table type.
 *
 * <p>Per changed record (update or delete; inserts cost the same on both types, since both put them in base files):
 * {@link #cowBytesPerChangedRecord} is the bytes a Copy-on-Write merge writes (measured from rewrite stats: their
 * bytes less the estimated bytes of inserts they took; estimated for log appends as the current base file of the
 * group), {@link #morBytesPerChangedRecord} the bytes a Merge-on-Read append writes (measured from log append stats;
 * estimated for rewrites as the changed records' bytes plus one block header, the schema, per file group).
 * {@link #rewriteRatio} is the first over the second.
 *
 * @param commits upserts and deletes looked at (the newest {@code sluice.health.recent.commits}; inserts, bulk inserts
 *     and compactions excluded)
 * @param inserted records they inserted
 * @param updated records they updated
 * @param deleted records they deleted
 * @param updateFraction (updated + deleted) / all changed records
 * @param fileGroupsTouchedPerCommit existing file groups rewritten or appended to, per commit
 * @param fileGroups file groups in the table now
 * @param fileGroupsTouchedFraction the former over the latter
 * @param changedRecordsPerFileGroup updates and deletes per existing file group touched
 * @param cowBytesPerChangedRecord Copy-on-Write bytes per update or delete
 * @param morBytesPerChangedRecord Merge-on-Read bytes per update or delete
 * @param rewriteRatio Copy-on-Write bytes over Merge-on-Read bytes for the same changes
 * @param baseBytes bytes of the latest base files now
 * @param logBytes bytes of their log files now (log growth not yet compacted)
 * @param logBytesPerDeltaCommit log bytes appended per delta commit among the commits looked at
 */
public record WritePattern(int commits, long inserted, long updated, long deleted, OptionalDouble updateFraction,
    double fileGroupsTouchedPerCommit, int fileGroups, OptionalDouble fileGroupsTouchedFraction,
    OptionalDouble changedRecordsPerFileGroup, OptionalDouble cowBytesPerChangedRecord,
    OptionalDouble morBytesPerChangedRecord, OptionalDouble rewriteRatio, long baseBytes, long logBytes,
    OptionalDouble logBytesPerDeltaCommit) {
}
