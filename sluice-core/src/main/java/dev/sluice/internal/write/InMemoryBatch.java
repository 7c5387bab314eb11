package dev.sluice.internal.write;

import dev.sluice.api.FileWriteResult;
import dev.sluice.api.WriteOperation;
import dev.sluice.api.WriteToken;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.index.FooterPreload;
import dev.sluice.internal.index.Index;
import dev.sluice.internal.index.Indexes;
import dev.sluice.internal.index.Location;
import dev.sluice.internal.index.TaggedRecord;
import dev.sluice.internal.util.KeySort;
import dev.sluice.internal.util.Parallel;
import dev.sluice.internal.util.ProgressMeter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A batch that fits the write memory budget, tagged and held in memory: per existing file group its updates by key
 * (a later version of a key replaces an earlier one), per partition its inserts sorted by key. The plan's file groups
 * are written in parallel.
 */
final class InMemoryBatch implements PlanSource {
  private final WriteSetup setup;
  private final Map<FileGroupId, Map<String, WriteRecord>> updates = new LinkedHashMap<>();
  private final Map<FileGroupId, String> baseInstants = new HashMap<>();
  private final Map<String, List<WriteRecord>> inserts = new TreeMap<>();

  private InMemoryBatch(WriteSetup setup) {
    this.setup = setup;
  }

  /** Tags {@code records} with the configured index (a bulk insert: takes them all as inserts). */
  static InMemoryBatch of(WriteSetup setup, WriteOperation op, List<WriteRecord> records, FileSystemView view) {
    return of(setup, op, records, view, new OutcomeCounts(), ProgressMeter.OFF, FooterPreload.NONE);
  }

  /**
   * Tags as {@link #of(WriteSetup, WriteOperation, List, FileSystemView)}, counting into {@code counts} the deletes of
   * keys the index did not find and the updates of a key collapsed into its later version (a batch not combined).
   * The index takes the footers {@code footers} has read (and stops it).
   */
  static InMemoryBatch of(WriteSetup setup, WriteOperation op, List<WriteRecord> records, FileSystemView view,
      OutcomeCounts counts, ProgressMeter tag, FooterPreload footers) {
    InMemoryBatch batch = new InMemoryBatch(setup);
    if (op == WriteOperation.BULK_INSERT) {
      records.forEach(batch::addInsert);
    } else {
      Index index = Indexes.of(setup.storage(), setup.indexedTable(), setup.settings().index(), footers);
      // the index counts the batch's records as tagged in shares, as its lookups (per base file, in parallel) finish
      List<TaggedRecord> tagged = index.tag(records, view, tag);
      for (TaggedRecord t : tagged) {
        WriteRecord r = t.record();
        if (t.location().isPresent()) {
          Location loc = t.location().get();
          FileGroupId id = new FileGroupId(loc.partitionPath(), loc.fileId());
          if (batch.updates.computeIfAbsent(id, k -> new LinkedHashMap<>()).put(r.key(), r) != null) {
            counts.combined.increment();
          }
          batch.baseInstants.put(id, loc.baseInstant());
        } else {
          if (r.isDelete()) {
            counts.deletesNotFound.increment();
          }
          batch.addInsert(r);
        }
      }
    }
    // sorting by key was a third of a bulk insert's time on one thread: partitions sort on the write threads
    Parallel.map(new ArrayList<>(batch.inserts.values()), setup.parallelism(), InMemoryBatch::sortByKey);
    return batch;
  }

  private void addInsert(WriteRecord r) {
    if (!r.isDelete()) {
      inserts.computeIfAbsent(r.partitionPath(), p -> new ArrayList<>()).add(r);
    }
  }

  /** Sorts {@code records} by record key in place (and returns them). */
  private static List<WriteRecord> sortByKey(List<WriteRecord> records) {
    // a comparator reading each record's key cost seconds per million records (KeySort says why)
    KeySort.sort(records, WriteRecord::key);
    return records;
  }

  @Override
  public Collection<TaggedGroup> taggedGroups() {
    List<TaggedGroup> out = new ArrayList<>(updates.size());
    updates.forEach((id, byKey) -> out.add(new TaggedGroup(id, baseInstants.get(id), byKey.size())));
    return out;
  }

  @Override
  public Map<String, Long> insertCounts() {
    Map<String, Long> out = new TreeMap<>();
    inserts.forEach((p, records) -> out.put(p, (long) records.size()));
    return out;
  }

  @Override
  public List<FileWriteResult> apply(List<FileGroupWrite> plan, Handles handles) {
    // each write's inserts: the next ones of its partition, in plan order
    List<List<WriteRecord>> insertsOf = new ArrayList<>(plan.size());
    Map<String, Integer> taken = new HashMap<>();
    List<Integer> indexes = new ArrayList<>(plan.size());
    for (FileGroupWrite w : plan) {
      String p = w.id().partitionPath();
      int from = taken.getOrDefault(p, 0);
      int to = from + (int) w.inserts();
      insertsOf.add(w.inserts() == 0 ? List.of() : inserts.get(p).subList(from, to));
      taken.put(p, to);
      indexes.add(indexes.size());
    }
    List<List<FileWriteResult>> results = Parallel.map(indexes, setup.parallelism(), i -> {
      FileGroupWrite w = plan.get(i);
      Map<String, WriteRecord> groupUpdates = updates.getOrDefault(w.id(), Map.of());
      GroupProgress progress = GroupProgress.of(handles.written(), w);
      if (w instanceof FileGroupWrite.Merge m) {
        try (PendingUpdates pending = PendingUpdates.inMemory(groupUpdates)) {
          List<FileWriteResult> r = List.of(handles.merges().write(m, pending,
              progress.count(insertsOf.get(i).iterator()), WriteToken.of(i)));
          progress.done();
          return r;
        }
      }
      List<FileWriteResult> r = w instanceof FileGroupWrite.Append a
          ? handles.appends().write(a, progress.count(groupUpdates.values().iterator()), WriteToken.of(i),
              Long.MAX_VALUE, x -> 0)
          : handles.creates().write((FileGroupWrite.Create) w, progress.count(insertsOf.get(i).iterator()),
              WriteToken.of(i));
      progress.done();
      return r;
    });
    List<FileWriteResult> out = new ArrayList<>();
    results.forEach(out::addAll);
    return out;
  }

  @Override
  public void close() {
    updates.clear();
    inserts.clear();
  }
}
