package dev.sluice.tools.health;

import dev.sluice.api.Table;
import dev.sluice.api.CommitInfo;
import dev.sluice.api.FileGroupKey;
import dev.sluice.api.Tables;
import dev.sluice.api.WritePreviewInfo;
import dev.sluice.api.WriteStatInfo;
import dev.sluice.api.TableType;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Recommends Copy-on-Write or Merge-on-Read for a table's writes. The decisive figure is the rewrite ratio: bytes a
 * Copy-on-Write upsert writes per update or delete over the bytes a Merge-on-Read append writes for it. From
 * {@link HealthSettings#adviseBreakEven()} up, Merge-on-Read is recommended (its writes are that much smaller;
 * reads then merge logs and compaction must run); below it, or when fewer than {@value #MIN_UPDATE_FRACTION} of the
 * changed records are updates or deletes, Copy-on-Write (its reads need no merging). The history is the newest
 * {@link HealthSettings#recentCommits()} upserts and deletes ({@link #PATTERN_OPERATIONS}): inserts and bulk inserts
 * are left out, as are compactions, because an initial load says nothing about the steady write pattern, and counting
 * its records as changes hid a table's updates behind them (one upsert of 91% updates after a 1,200-row insert read
 * as 7%). A sample, when given, decides over the history.
 */
public final class Advisor {
  /** Below this share of updates and deletes among changed records a table is insert-mostly. */
  static final double MIN_UPDATE_FRACTION = 0.1;
  /** Hudi operation names (as recorded in commit metadata) whose commits show the upsert pattern advised on. */
  static final Set<String> PATTERN_OPERATIONS = Set.of("UPSERT", "UPSERT_PREPPED", "DELETE", "DELETE_PREPPED");
  /** Log block framing besides the schema header. */
  private static final int BLOCK_FRAMING_BYTES = 64;
  /** Header size when no commit recorded a schema. */
  private static final int DEFAULT_HEADER_BYTES = 1024;

  private Advisor() {
  }

  /**
   * Loads {@code table}'s figures and advises on them; a {@code sample} is tagged as an upsert against the table's
   * index (nothing is written).
   */
  public static Advice advise(Table table, Optional<Iterator<GenericRecord>> sample, Clock clock) {
    HealthInput input = HealthInput.load(table);
    HealthSettings settings = HealthSettings.from(table.options());
    TableStats stats = TableHealth.compute(input, settings, clock.instant());
    Optional<WritePreviewInfo> preview = sample.map(records -> input.table().previewUpsert(records));
    return advise(input, stats, settings, preview);
  }

  /** Advice from the recent commits in {@code input} (figures in {@code stats}) and an optional sample preview. */
  public static Advice advise(HealthInput input, TableStats stats, HealthSettings settings, Optional<WritePreviewInfo> sample) {
    WritePattern history = history(input, stats, settings);
    Optional<SampleEstimate> estimate = sample.map(p -> estimate(p, stats.slices().size()));
    double breakEven = settings.adviseBreakEven();
    if (estimate.isPresent() && estimate.get().updates() + estimate.get().deletes() > 0) {
      SampleEstimate e = estimate.get();
      double frac = (double) (e.updates() + e.deletes()) / Math.max(1, e.updates() + e.deletes() + e.inserts());
      TableType rec = pick(OptionalDouble.of(frac), e.rewriteRatio(), breakEven);
      return new Advice(rec, stats.tableType(), sampleReason(e, frac, rec, breakEven), "sample", history, estimate,
          breakEven);
    }
    if (history.updated() + history.deleted() > 0) {
      TableType rec = pick(history.updateFraction(), history.rewriteRatio(), breakEven);
      return new Advice(rec, stats.tableType(), historyReason(history, rec, breakEven, stats.tableType()), "history",
          history, estimate, breakEven);
    }
    String reason = String.format(Locale.ROOT, "The last %d upserts and deletes%s changed no existing records (%,d "
        + "inserted; inserts and bulk inserts are not counted): inserts "
        + "go to base files on both table types, so Copy-on-Write, whose reads need no merging and no compaction, fits. "
        + "Run again with --input on a sample of the upserts you expect to get an estimate of their cost.",
        history.commits(), estimate.map(e -> " and the sample").orElse(""), history.inserted());
    return new Advice(TableType.COPY_ON_WRITE, stats.tableType(), reason, "none", history, estimate, breakEven);
  }

  private static TableType pick(OptionalDouble updateFraction, OptionalDouble ratio, double breakEven) {
    if (updateFraction.orElse(0) < MIN_UPDATE_FRACTION) {
      return TableType.COPY_ON_WRITE;
    }
    return ratio.orElse(0) >= breakEven ? TableType.MERGE_ON_READ : TableType.COPY_ON_WRITE;
  }

  static WritePattern history(HealthInput input, TableStats stats, HealthSettings settings) {
    List<CommitStats> writes = stats.commits().stream()
        .filter(c -> !c.compaction() && c.operation() != null
            && PATTERN_OPERATIONS.contains(c.operation().toUpperCase(Locale.ROOT))).toList();
    List<CommitStats> recent = writes.subList(Math.max(0, writes.size() - settings.recentCommits()), writes.size());
    Map<FileGroupKey, Long> baseBytes = new HashMap<>();
    long totalBase = 0;
    int withBase = 0;
    for (SliceStats s : stats.slices()) {
      baseBytes.put(new FileGroupKey(s.partitionPath(), s.fileId()), s.baseFileBytes());
      if (s.baseFile().isPresent()) {
        totalBase += s.baseFileBytes();
        withBase++;
      }
    }
    long avgBase = withBase == 0 ? 0 : totalBase / withBase;
    long header = headerBytes(input);
    boolean mor = stats.tableType() == TableType.MERGE_ON_READ;
    double cow = 0;
    double morBytes = 0;
    long changes = 0;
    long touched = 0;
    long inserted = 0;
    long updated = 0;
    long deleted = 0;
    long deltaCommits = 0;
    long logAppendBytes = 0;
    for (CommitStats c : recent) {
      inserted += c.inserted();
      updated += c.updated();
      deleted += c.deleted();
      touched += c.existingFileGroupsTouched();
      if ("deltacommit".equals(c.action())) {
        deltaCommits++;
      }
      CommitInfo md = input.commitMetadata().get(c.instantTime());
      if (md == null) {
        continue;
      }
      Set<FileGroupKey> blocks = new HashSet<>();
      for (WriteStatInfo s : md.stats()) {
        long changed = s.numUpdateWrites() + s.numDeletes();
        if (changed == 0) {
          continue;
        }
        changes += changed;
        FileGroupKey id = new FileGroupKey(s.partitionPath(), s.fileId());
        if (s.delta()) {
          morBytes += s.totalWriteBytes();
          logAppendBytes += s.totalWriteBytes();
          cow += baseBytes.getOrDefault(id, avgBase);
        } else if (!WriteStatInfo.NULL_COMMIT.equals(s.prevCommit())) {
          double perRecord = s.numWrites() > 0 ? (double) s.totalWriteBytes() / s.numWrites() : 0;
          double rewrite = s.totalWriteBytes() - perRecord * s.numInserts();
          cow += rewrite;
          // on Merge-on-Read a rewrite (a small file taking inserts) is what the table did, on Copy-on-Write's behalf
          morBytes += mor ? rewrite : perRecord * changed + (blocks.add(id) ? header : 0);
        }
      }
    }
    long changedAll = inserted + updated + deleted;
    OptionalDouble cowPer = CommitStats.ratio(cow, changes);
    OptionalDouble morPer = CommitStats.ratio(morBytes, changes);
    double perCommit = recent.isEmpty() ? 0 : (double) touched / recent.size();
    int groups = stats.slices().size();
    return new WritePattern(recent.size(), inserted, updated, deleted, CommitStats.ratio(updated + deleted, changedAll),
        perCommit, groups, CommitStats.ratio(perCommit, groups), CommitStats.ratio(updated + deleted, touched), cowPer,
        morPer, CommitStats.ratio(cow, morBytes), stats.readCost().baseBytes(), stats.readCost().logBytes(),
        CommitStats.ratio(logAppendBytes, deltaCommits));
  }

  static SampleEstimate estimate(WritePreviewInfo p, int fileGroups) {
    long updates = 0;
    long deletes = 0;
    long cow = 0;
    long mor = 0;
    for (WritePreviewInfo.Target t : p.targets()) {
      updates += t.updates();
      deletes += t.deletes();
      cow += t.baseFileBytes();
      int blocks = (t.updates() > 0 ? 1 : 0) + (t.deletes() > 0 ? 1 : 0);
      mor += t.changedRowBytes() + blocks * p.blockHeaderBytes();
    }
    return new SampleEstimate(p.records(), p.inserts(), updates, deletes, p.targets().size(), fileGroups, cow, mor,
        CommitStats.ratio(cow, mor), CommitStats.ratio(updates + deletes, p.targets().size()));
  }

  private static long headerBytes(HealthInput input) {
    List<CommitInfo> all = new ArrayList<>(input.commitMetadata().values());
    for (int i = all.size() - 1; i >= 0; i--) {
      Optional<String> schema = all.get(i).schema();
      if (schema.isPresent()) {
        Schema writer = Tables.withMetaFields(new Schema.Parser().parse(schema.get()));
        return writer.toString().getBytes(StandardCharsets.UTF_8).length + BLOCK_FRAMING_BYTES;
      }
    }
    return DEFAULT_HEADER_BYTES;
  }

  private static String sampleReason(SampleEstimate e, double frac, TableType rec, double breakEven) {
    String head = String.format(Locale.ROOT, "Tagged against the table's index, the sample of %,d records has %,d updates "
        + "and %,d deletes (%.0f%% of its records) in %,d of the table's %,d file groups (%.1f changed records per file "
        + "group) and %,d inserts. As an upsert, Copy-on-Write would rewrite %,d bytes of base files where "
        + "Merge-on-Read would append about %,d bytes of log blocks: %.1fx.", e.records(), e.updates(), e.deletes(),
        100 * frac, e.fileGroupsTouched(), e.fileGroups(), e.changedRecordsPerFileGroup().orElse(0), e.inserts(),
        e.cowBytesRewritten(), e.morBytesAppended(), e.rewriteRatio().orElse(0));
    return head + " " + verdict(rec, frac, e.rewriteRatio().orElse(0), breakEven);
  }

  private static String historyReason(WritePattern h, TableType rec, double breakEven, TableType current) {
    boolean cowMeasured = current == TableType.COPY_ON_WRITE;
    String head = String.format(Locale.ROOT, "Over the last %d upserts and deletes, %.0f%% of the %,d changed records were updates or "
        + "deletes; each write touched %.1f of the table's %,d file groups (%.0f%%) with %.1f changed records per file "
        + "group. Copy-on-Write %s %,.0f bytes per update or delete, Merge-on-Read %s about %,.0f: %.1fx.",
        h.commits(), 100 * h.updateFraction().orElse(0), h.inserted() + h.updated() + h.deleted(),
        h.fileGroupsTouchedPerCommit(), h.fileGroups(), 100 * h.fileGroupsTouchedFraction().orElse(0),
        h.changedRecordsPerFileGroup().orElse(0), cowMeasured ? "wrote" : "would write",
        h.cowBytesPerChangedRecord().orElse(0), cowMeasured ? "would append" : "appended",
        h.morBytesPerChangedRecord().orElse(0), h.rewriteRatio().orElse(0));
    String logs = current == TableType.MERGE_ON_READ ? String.format(Locale.ROOT,
        " Logs grew %,.0f bytes per delta commit and hold %,d bytes beside %,d bytes of base files.",
        h.logBytesPerDeltaCommit().orElse(0), h.logBytes(), h.baseBytes()) : "";
    return head + logs + " " + verdict(rec, h.updateFraction().orElse(0), h.rewriteRatio().orElse(0), breakEven);
  }

  private static String verdict(TableType rec, double updateFraction, double ratio, double breakEven) {
    if (rec == TableType.MERGE_ON_READ) {
      return String.format(Locale.ROOT, "That is above the break-even of %.1f (sluice.health.advise.break.even), so "
          + "Merge-on-Read fits: upserts append their changes to logs instead of rewriting base files; plan for compaction "
          + "(hoodie.compact.inline.max.delta.commits) and for snapshot reads merging logs until it runs.", breakEven);
    }
    if (updateFraction < MIN_UPDATE_FRACTION) {
      return String.format(Locale.ROOT, "Updates and deletes are under %.0f%% of the changes, so Copy-on-Write fits: "
          + "inserts cost the same on both types, and its reads need no merging or compaction.", 100 * MIN_UPDATE_FRACTION);
    }
    return String.format(Locale.ROOT, "That is below the break-even of %.1f (sluice.health.advise.break.even), so "
        + "Copy-on-Write fits: its rewrites cost little more than appends would, and its reads need no merging or "
        + "compaction.", breakEven);
  }
}
