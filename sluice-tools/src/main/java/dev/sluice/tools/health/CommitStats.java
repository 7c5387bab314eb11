package dev.sluice.tools.health;

import dev.sluice.api.CommitInfo;
import dev.sluice.api.WriteStatInfo;
import java.util.HashSet;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * What one completed commit wrote, from its commit metadata's write stats, and how much it wrote per changed record.
 *
 * <p>Changed records = inserted + updated + deleted. Their bytes are estimated per write stat as
 * {@code totalWriteBytes / numWrites × (numInserts + numUpdateWrites + numDeletes)} (the file's bytes per stored
 * record times the records that changed in it; a stat that stored no record, e.g. a delete-only log block, counts
 * all its bytes as changed). {@link #writeAmplification} is bytes written over that estimate: about 1 when a write
 * wrote little beyond its changes (inserts, log appends), N when it rewrote files N times the size of its changes
 * (Copy-on-Write merges). {@link #recordAmplification} is records written over records changed, and
 * {@link #hudiWriteAmplification} Hudi's own figure ({@code hudi-cli stats wa}): records written over records updated.
 *
 * @param instantTime the commit's instant time
 * @param action {@code commit}, {@code deltacommit} or {@code replacecommit}
 * @param operation the write operation recorded
 * @param compaction true if this commit completed a compaction (not a write of new data)
 * @param inserted records inserted
 * @param updated records updated
 * @param deleted records deleted
 * @param recordsWritten records written ({@code numWrites}: whole files for base files, appended rows for logs)
 * @param fileGroupsTouched distinct file groups with a write stat
 * @param fileGroupsRewritten existing file groups whose base file was rewritten (a stat with a previous commit, not a log)
 * @param fileGroupsCreated new file groups
 * @param logAppends stats of log appends
 * @param bytesWritten bytes written ({@code totalWriteBytes})
 * @param changedRecordBytes estimated bytes of the changed records (see above)
 * @param rewrittenBytes bytes written by the rewrites of existing base files
 * @param rewrittenChangedRecords records changed in those rewrites
 * @param writeAmplification bytes written / changed record bytes, if anything changed
 * @param recordAmplification records written / records changed, if anything changed
 * @param hudiWriteAmplification records written / records updated, if anything was updated
 */
public record CommitStats(String instantTime, String action, String operation, boolean compaction,
    long inserted, long updated, long deleted, long recordsWritten, long fileGroupsTouched, long fileGroupsRewritten,
    long fileGroupsCreated, long logAppends, long bytesWritten, long changedRecordBytes, long rewrittenBytes,
    long rewrittenChangedRecords, OptionalDouble writeAmplification, OptionalDouble recordAmplification,
    OptionalDouble hudiWriteAmplification) {

  /** The figures of one commit's metadata. */
  public static CommitStats of(String instantTime, String action, CommitInfo md, boolean compaction) {
    long inserted = 0;
    long updated = 0;
    long deleted = 0;
    long written = 0;
    long bytes = 0;
    double changedBytes = 0;
    long rewritten = 0;
    long created = 0;
    long logs = 0;
    long rewrittenBytes = 0;
    long rewrittenChanged = 0;
    Set<String> groups = new HashSet<>();
    for (WriteStatInfo s : md.stats()) {
      if (!s.fileId().isEmpty()) {
        groups.add(s.partitionPath() + '\u0000' + s.fileId());
      }
      long changed = s.numInserts() + s.numUpdateWrites() + s.numDeletes();
      inserted += s.numInserts();
      updated += s.numUpdateWrites();
      deleted += s.numDeletes();
      written += s.numWrites();
      bytes += s.totalWriteBytes();
      changedBytes += changedBytes(s);
      if (s.delta()) {
        logs++;
      } else if (WriteStatInfo.NULL_COMMIT.equals(s.prevCommit()) || s.prevCommit().isEmpty()) {
        created++;
      } else {
        rewritten++;
        rewrittenBytes += s.totalWriteBytes();
        rewrittenChanged += changed;
      }
    }
    long changed = inserted + updated + deleted;
    long changedRounded = Math.round(changedBytes);
    return new CommitStats(instantTime, action, md.operation(), compaction, inserted, updated, deleted, written,
        groups.size(), rewritten, created, logs, bytes, changedRounded, rewrittenBytes, rewrittenChanged,
        ratio(bytes, changedBytes), ratio(written, changed), ratio(written, updated));
  }

  /** The estimated bytes of a stat's changed records: its bytes per stored record times its changed records. */
  static double changedBytes(WriteStatInfo s) {
    long changed = s.numInserts() + s.numUpdateWrites() + s.numDeletes();
    if (changed == 0) {
      return 0;
    }
    if (s.numWrites() <= 0) {
      return s.totalWriteBytes();
    }
    return (double) s.totalWriteBytes() / s.numWrites() * changed;
  }

  /** Records changed: inserted + updated + deleted. */
  public long changedRecords() {
    return inserted + updated + deleted;
  }

  /** Existing file groups this commit wrote to: rewritten base files and log appends. */
  public long existingFileGroupsTouched() {
    return fileGroupsRewritten + logAppends;
  }

  /** Changed records per rewritten file group, if any was rewritten. */
  public OptionalDouble changedRecordsPerRewrittenFileGroup() {
    return ratio(rewrittenChangedRecords, fileGroupsRewritten);
  }

  static OptionalDouble ratio(double num, double den) {
    return den > 0 ? OptionalDouble.of(num / den) : OptionalDouble.empty();
  }
}
