package dev.sluice.tools.health;

import dev.sluice.api.CorruptBlockInfo;
import dev.sluice.api.TableType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The warnings a table's figures raise. Two incidents are the point: Merge-on-Read reads slowing down because
 * compaction stopped (logs piling up, a compaction stuck, none scheduled), and Copy-on-Write upserts taking hours
 * because their keys are spread over the table (every touched base file rewritten for a handful of changes).
 */
final class HealthChecks {
  private HealthChecks() {
  }

  static List<Warning> warnings(TableStats t, HealthSettings s) {
    List<Warning> out = new ArrayList<>();
    slicesOver(t.slices(), SliceStats::logFiles, s.maxLogFiles(), Warning.LOG_FILES, "log files", out);
    slicesOver(t.slices(), SliceStats::deltaCommitsSinceBase, s.maxDeltaCommits(), Warning.DELTA_COMMITS,
        "delta commits since their base file", out);
    for (PendingCompaction c : t.pendingCompactions()) {
      if (c.ageMinutes() > s.pendingCompactionMaxAgeMinutes()) {
        out.add(new Warning(Warning.PENDING_COMPACTION_AGE, String.format(Locale.ROOT,
            "Compaction %s (%s, %d file groups) has been pending for %d minutes (limit %d): its file groups keep growing "
                + "logs until it completes. Run or roll back the compaction.", c.instantTime(),
            c.state().toLowerCase(Locale.ROOT), c.fileGroups().size(), c.ageMinutes(), s.pendingCompactionMaxAgeMinutes()),
            numbers("ageMinutes", c.ageMinutes(), "fileGroups", c.fileGroups().size(), "limitMinutes",
                s.pendingCompactionMaxAgeMinutes())));
      }
    }
    int logFiles = t.slices().stream().mapToInt(SliceStats::logFiles).sum();
    if (t.tableType() == TableType.MERGE_ON_READ && t.pendingCompactions().isEmpty() && logFiles > 0
        && t.deltaCommitsSinceLastCompaction() > s.maxDeltaCommits()) {
      out.add(new Warning(Warning.NOT_SCHEDULED, String.format(Locale.ROOT,
          "%d delta commits since %s and no compaction scheduled (threshold %d); %d log files wait to be merged into base "
              + "files, and every snapshot query merges them meanwhile. Schedule compaction (Hudi's compactor, or inline "
              + "compaction with hoodie.compact.inline.max.delta.commits).", t.deltaCommitsSinceLastCompaction(),
          t.lastCompaction().map(c -> "the last compaction (" + c + ")").orElse("the start of the active timeline"),
          s.maxDeltaCommits(), logFiles),
          numbers("deltaCommits", t.deltaCommitsSinceLastCompaction(), "logFiles", logFiles, "threshold",
              s.maxDeltaCommits())));
    }
    scatteredRewrites(t, s, out);
    return out;
  }

  /** One warning per corrupt log block that snapshot queries skip. */
  static List<Warning> corruptBlocks(List<CorruptBlockInfo> blocks) {
    List<Warning> out = new ArrayList<>();
    for (CorruptBlockInfo b : blocks) {
      String what = b.committed()
          ? " Restore the file from a backup to get them back; 'sluice repair TABLE --apply' drops the damaged bytes "
              + "(keeping every readable block)."
          : " Harmless to readers; 'sluice repair TABLE --apply' removes it.";
      out.add(new Warning(Warning.CORRUPT_LOG_BLOCK, "Snapshot queries skip a " + b.describe() + "." + what,
          numbers("offset", b.offset(), "bytes", b.size())));
    }
    return out;
  }

  private static void slicesOver(List<SliceStats> slices, ToIntFunction<SliceStats> figure, int threshold, String code,
      String what, List<Warning> out) {
    List<SliceStats> over = slices.stream().filter(x -> figure.applyAsInt(x) > threshold).toList();
    if (over.isEmpty()) {
      return;
    }
    SliceStats worst = over.stream().max(Comparator.comparingInt(figure)).orElseThrow();
    int max = figure.applyAsInt(worst);
    out.add(new Warning(code, String.format(Locale.ROOT,
        "%d file slices have more than %d %s (most: %d, file group %s in partition '%s'): compaction is falling behind, "
            + "and snapshot queries merge all of them. Run compaction, or check why it stopped.", over.size(), threshold,
        what, max, worst.fileId(), worst.partitionPath()),
        numbers("slices", over.size(), "max", max, "threshold", threshold)));
  }

  private static void scatteredRewrites(TableStats t, HealthSettings s, List<Warning> out) {
    List<CommitStats> recent = t.recentWrites(s.recentCommits());
    List<CommitStats> bad = new ArrayList<>();
    for (CommitStats c : recent) {
      if (c.writeAmplification().orElse(0) > s.writeAmplificationMax() && c.fileGroupsRewritten() > s.minRewrittenFileGroups()
          && c.changedRecordsPerRewrittenFileGroup().orElse(Double.MAX_VALUE) < s.maxChangedRecordsPerFileGroup()) {
        bad.add(c);
      }
    }
    if (bad.isEmpty()) {
      return;
    }
    CommitStats w = bad.stream().max(Comparator.comparingDouble(c -> c.writeAmplification().orElse(0))).orElseThrow();
    double perGroup = w.changedRecordsPerRewrittenFileGroup().orElse(0);
    out.add(new Warning(Warning.SCATTERED_UPSERTS, String.format(Locale.ROOT,
        "%d of the last %d writes rewrote more than %d file groups for fewer than %d changed records each, with write "
            + "amplification above %.1f (worst: %s rewrote %d file groups, %,d bytes written for %,d changed records, "
            + "%.1f per file group: write amplification %.1f). Copy-on-Write rewrites every base file an upsert touches; "
            + "keys spread over the table touch them all. See 'sluice advise' (Merge-on-Read appends changes to logs) or "
            + "make upsert keys cluster (key design, sorting).", bad.size(), recent.size(), s.minRewrittenFileGroups(),
        s.maxChangedRecordsPerFileGroup(), s.writeAmplificationMax(), w.instantTime(), w.fileGroupsRewritten(),
        w.bytesWritten(), w.changedRecords(), perGroup, w.writeAmplification().orElse(0)),
        numbers("commits", bad.size(), "recentCommits", recent.size(), "writeAmplification",
            w.writeAmplification().orElse(0), "fileGroupsRewritten", w.fileGroupsRewritten(), "changedRecordsPerFileGroup",
            perGroup, "bytesWritten", w.bytesWritten(), "threshold", s.writeAmplificationMax())));
  }

  private static Map<String, Number> numbers(Object... kv) {
    Map<String, Number> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (Number) kv[i + 1]);
    }
    return m;
  }
}
