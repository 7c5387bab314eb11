package dev.sluice.internal.clean;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.avro.AvroContainer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;

/**
 * What the cleaner must never delete whatever the policy says: slices that a pending compaction or log compaction
 * reads (the slice its plan names and every newer one, {@code isFileSliceNeededForPendingCompaction}), and files a
 * savepoint lists. Plans and savepoints are read by field name, so files of any Hudi version work.
 */
final class ProtectedSlices {
  private final Map<FileGroupId, String> compactionBase;
  private final Set<String> savepointedFiles;
  private final List<String> savepointTimes;

  private ProtectedSlices(Map<FileGroupId, String> compactionBase, Set<String> savepointedFiles,
                          List<String> savepointTimes) {
    this.compactionBase = compactionBase;
    this.savepointedFiles = savepointedFiles;
    this.savepointTimes = savepointTimes;
  }

  /** Reads the plans of pending (log) compactions and the completed savepoints of {@code timeline}. */
  static ProtectedSlices load(TimelineStore store, Timeline timeline) {
    Map<FileGroupId, String> base = new HashMap<>();
    List<Instant> pending = new ArrayList<>(timeline.pendingCompactions());
    pending.addAll(timeline.pendingLogCompactions());
    for (Instant c : pending) {
      Instant requested = Instant.requested(c.time(), c.action());
      byte[] bytes = store.readIfExists(requested).orElse(new byte[0]);
      Optional<GenericRecord> plan = AvroContainer.read(bytes, store.pathOf(requested));
      Object ops = plan.map(p -> p.hasField("operations") ? p.get("operations") : null).orElse(null);
      if (!(ops instanceof List<?> list)) {
        continue;
      }
      for (Object o : list) {
        GenericRecord op = (GenericRecord) o;
        Object fileId = op.get("fileId");
        Object baseInstant = op.get("baseInstantTime");
        if (fileId == null || baseInstant == null) {
          throw Errors.badTable(store.pathOf(requested), "a compaction operation has no fileId or baseInstantTime",
              "The compaction plan is damaged; roll the compaction back.");
        }
        Object partition = op.get("partitionPath");
        FileGroupId id = new FileGroupId(partition == null ? "" : partition.toString(), fileId.toString());
        // two pending plans on one group cannot both be valid; keep the older base, which protects more
        base.merge(id, baseInstant.toString(), (a, b) -> InstantTimes.isBefore(a, b) ? a : b);
      }
    }
    Set<String> files = new HashSet<>();
    List<String> times = new ArrayList<>();
    for (Instant sp : timeline.filter(i -> i.action() == Action.SAVEPOINT && i.isCompleted()).instants()) {
      times.add(sp.time());
      byte[] bytes = store.readIfExists(sp).orElse(new byte[0]);
      Optional<GenericRecord> md = AvroContainer.read(bytes, store.pathOf(sp));
      Object partitions = md.map(m -> m.hasField("partitionMetadata") ? m.get("partitionMetadata") : null).orElse(null);
      if (partitions instanceof Map<?, ?> m) {
        for (Object p : m.values()) {
          Object names = ((GenericRecord) p).get("savepointDataFile");
          if (names instanceof List<?> l) {
            l.forEach(n -> files.add(n.toString()));
          }
        }
      }
    }
    return new ProtectedSlices(Map.copyOf(base), Set.copyOf(files), List.copyOf(times));
  }

  /** True if a pending (log) compaction reads this slice or writes into it. */
  boolean neededForPendingCompaction(FileSlice slice) {
    String base = compactionBase.get(slice.id());
    return base != null && InstantTimes.isBeforeOrEqual(base, slice.baseInstant());
  }

  /** True if a pending (log) compaction covers this file group. */
  boolean inPendingCompaction(FileGroupId id) {
    return compactionBase.containsKey(id);
  }

  /** True if a savepoint lists the slice's base file or one of its log files. */
  boolean savepointed(FileSlice slice) {
    if (savepointedFiles.isEmpty()) {
      return false;
    }
    if (slice.baseFile().isPresent() && savepointedFiles.contains(slice.baseFile().get().fileName())) {
      return true;
    }
    return slice.logFiles().stream().anyMatch(l -> savepointedFiles.contains(l.fileName()));
  }

  /** The times of the completed savepoints, oldest first. */
  List<String> savepointTimes() {
    return savepointTimes;
  }
}
