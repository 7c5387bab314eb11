package dev.sluice.tools.health;

import dev.sluice.api.BaseFileInfo;
import dev.sluice.api.CommitInfo;
import dev.sluice.api.FileGroupKey;
import dev.sluice.api.FileSliceInfo;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.LogFileInfo;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.WriteStatInfo;
import dev.sluice.storage.StoragePaths;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Computes a table's {@link TableStats} from a {@link HealthInput}: no I/O beyond what the input's file-system
 * view lists. {@link #of(Table, Clock)} loads the input first.
 */
public final class TableHealth {
  private static final String COMMIT = "commit";
  private static final String DELTACOMMIT = "deltacommit";

  private TableHealth() {
  }

  /** Loads the table's timeline, commit metadata and file listing, and computes its figures and warnings. */
  public static TableStats of(Table table, Clock clock) {
    return compute(HealthInput.load(table), HealthSettings.from(table.options()), clock.instant());
  }

  /** As {@link #of(Table, Clock)}, on the timeline and listings of {@code inspection}. */
  public static TableStats of(TableInspection inspection, Clock clock) {
    return compute(HealthInput.load(inspection), HealthSettings.from(inspection.options()), clock.instant());
  }

  /** The figures and warnings of {@code input}, with ages measured at {@code now}. */
  public static TableStats compute(HealthInput input, HealthSettings settings, java.time.Instant now) {
    TableInspection table = input.table();
    List<CommitStats> commits = new ArrayList<>();
    Map<String, Long> baseRecords = new HashMap<>();
    Map<FileGroupKey, TreeMap<String, Long>> appends = new HashMap<>();
    Optional<String> lastCompaction = Optional.empty();
    for (Map.Entry<String, CommitInfo> e : input.commitMetadata().entrySet()) {
      String time = e.getKey();
      CommitInfo md = e.getValue();
      Optional<InstantInfo> instant = table.find(time);
      String action = instant.map(InstantInfo::action).orElse(COMMIT);
      boolean compaction = md.compacted() || (table.isCompaction(time) && COMMIT.equals(action));
      if (compaction) {
        lastCompaction = Optional.of(time);
      }
      commits.add(CommitStats.of(time, action, md, compaction));
      for (WriteStatInfo s : md.stats()) {
        if (s.delta()) {
          appends.computeIfAbsent(new FileGroupKey(s.partitionPath(), s.fileId()), k -> new TreeMap<>())
              .merge(time, s.numWrites() + s.numDeletes(), Long::sum);
        } else if (s.path().isPresent()) {
          baseRecords.put(StoragePaths.name(s.path().get()), s.numWrites());
        }
      }
    }
    List<SliceStats> slices = new ArrayList<>();
    List<Long> baseSizes = new ArrayList<>();
    Map<FileGroupKey, String> pendingOps = table.pendingCompactionOperations();
    for (String partition : table.partitions()) {
      for (FileSliceInfo slice : table.latestSlices(partition)) {
        SliceStats s = slice(slice, baseRecords, appends.getOrDefault(slice.id(), new TreeMap<>()),
            Optional.ofNullable(pendingOps.get(slice.id())));
        slices.add(s);
        if (s.baseFile().isPresent()) {
          baseSizes.add(s.baseFileBytes());
        }
      }
    }
    List<PendingCompaction> pending = pending(input, pendingOps, now);
    int deltasSince = deltaCommitsAfter(table, lastCompaction);
    TableStats partial = new TableStats(input.tableType(), commits, slices, pending, lastCompaction, deltasSince,
        SizeDistribution.of(baseSizes, settings.smallFileLimit()), readCost(slices), List.of());
    List<Warning> warnings = new ArrayList<>(HealthChecks.corruptBlocks(table.corruptLogBlocks()));
    warnings.addAll(HealthChecks.warnings(partial, settings));
    return new TableStats(partial.tableType(), commits, slices, pending, lastCompaction, deltasSince,
        partial.baseFileSizes(), partial.readCost(), warnings);
  }

  private static SliceStats slice(FileSliceInfo slice, Map<String, Long> baseRecords, TreeMap<String, Long> appends,
      Optional<String> pendingCompaction) {
    Optional<BaseFileInfo> base = slice.baseFile();
    long baseBytes = base.map(BaseFileInfo::size).orElse(0L);
    OptionalLong records = base.map(b -> baseRecords.get(b.fileName())).map(OptionalLong::of).orElse(OptionalLong.empty());
    long logBytes = 0;
    for (LogFileInfo l : slice.logFiles()) {
      logBytes += l.size();
    }
    // delta commits strictly after the base instant appended to this slice's logs
    Map<String, Long> since = appends.tailMap(slice.baseInstant(), false);
    long logRecords = since.values().stream().mapToLong(Long::longValue).sum();
    OptionalDouble readAmp = baseBytes > 0 ? OptionalDouble.of((double) (baseBytes + logBytes) / baseBytes)
        : OptionalDouble.empty();
    OptionalDouble perBase = records.isPresent() && records.getAsLong() > 0
        ? OptionalDouble.of((double) logRecords / records.getAsLong()) : OptionalDouble.empty();
    return new SliceStats(slice.partitionPath(), slice.fileId(), slice.baseInstant(), base.map(BaseFileInfo::fileName),
        baseBytes, records, slice.logFiles().size(), logBytes, logRecords, since.size(), pendingCompaction, readAmp,
        perBase);
  }

  private static List<PendingCompaction> pending(HealthInput input, Map<FileGroupKey, String> ops, java.time.Instant now) {
    List<PendingCompaction> out = new ArrayList<>();
    for (InstantInfo c : input.table().pendingCompactions()) {
      List<FileGroupKey> groups = new ArrayList<>();
      ops.forEach((id, t) -> {
        if (t.equals(c.time())) {
          groups.add(id);
        }
      });
      groups.sort(null);
      out.add(new PendingCompaction(c.time(), c.state().name(), groups, ageMinutes(c.time(), input, now)));
    }
    return out;
  }

  private static long ageMinutes(String time, HealthInput input, java.time.Instant now) {
    // not a clock time (fixed instants such as 00000000000001): no age to speak of
    return InstantInfo.clockTime(time, input.timelineZone()).map(t -> Math.max(0, Duration.between(t, now).toMinutes()))
        .orElse(0L);
  }

  private static int deltaCommitsAfter(TableInspection table, Optional<String> after) {
    int n = 0;
    for (InstantInfo i : table.timeline()) {
      if (i.isCompleted() && DELTACOMMIT.equals(i.action()) && !table.isLogCompaction(i.time())
          && (after.isEmpty() || after.get().compareTo(i.time()) < 0)) {
        n++;
      }
    }
    return n;
  }

  private static ReadCost readCost(List<SliceStats> slices) {
    long base = 0;
    long logs = 0;
    long baseRecords = 0;
    long logRecords = 0;
    for (SliceStats s : slices) {
      base += s.baseFileBytes();
      logs += s.logBytes();
      baseRecords += s.baseRecords().orElse(0);
      logRecords += s.logRecords();
    }
    return new ReadCost(base, logs, baseRecords, logRecords, CommitStats.ratio(base + logs, base),
        CommitStats.ratio(logRecords, baseRecords));
  }
}
