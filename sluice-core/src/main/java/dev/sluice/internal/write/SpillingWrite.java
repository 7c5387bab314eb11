package dev.sluice.internal.write;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.FileWriteResult;
import dev.sluice.api.WriteOperation;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.index.Index;
import dev.sluice.internal.index.Indexes;
import dev.sluice.internal.index.Location;
import dev.sluice.internal.index.TaggedRecord;
import dev.sluice.internal.marker.Markers;
import dev.sluice.internal.spill.ExternalSorter;
import dev.sluice.internal.spill.SpillableMap;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.Schema;

/**
 * The write path of a batch whose prepared records passed the write memory budget
 * ({@code hoodie.memory.merge.max.size}). The batch comes out of {@link PreparedBatch#sorted()} combined and in
 * key order; it is tagged in chunks of half the budget with the configured index and routed into two external
 * sorts: updates by partition, file group and key, inserts by partition and key. Planning needs only counts
 * (updates per file group, inserts per partition), so it follows {@link WritePlanner}'s rules exactly: small files
 * take the first inserts of their partition in key order, the rest go to equal new file groups. The file groups
 * are then written one after another from the two sorted streams: a merge holds its group's updates in a
 * {@link SpillableMap} of half the budget, a create and a log append read their records as a stream (an append
 * writes a data and/or delete block per eighth of the budget).
 *
 * <p>Memory: about half the budget for the chunk being tagged, a quarter for each sort's in-memory tail, and the
 * sort merges' read buffers; while writing, half the budget for one file group's updates in memory. The updates
 * of the sorts' order are written in that same order, so the order of the sorted keys decides the order of the
 * plan: within a partition, the small files in the order they take inserts (their rank is part of the key), then
 * the other file groups by file id. Not thread-safe; {@link #close()} deletes every spill file.
 */
final class SpillingWrite implements Closeable {
  private static final char SEP = '\u0000';

  /** What a step does to its file group. */
  enum Kind {
    /** Rewrite the base file with updates and inserts. */
    MERGE,
    /** Merge-on-Read: append updates and deletes to the log. */
    APPEND,
    /** Write a new file group from inserts. */
    CREATE
  }

  /**
   * One file group write of the plan, by counts: the records come from the sorted streams in plan order.
   *
   * @param kind what is done
   * @param id the file group
   * @param current its base file (merges)
   * @param slice its file slice (appends)
   * @param updates entries of the update stream it takes
   * @param inserts entries of the insert stream it takes
   */
  record Step(Kind kind, FileGroupId id, Optional<BaseFile> current, Optional<FileSlice> slice, long updates,
      long inserts) {
  }

  /** The updates routed to one file group. */
  private static final class Group {
    final FileGroupId id;
    final String baseInstant;
    long count;

    Group(FileGroupId id, String baseInstant) {
      this.id = id;
      this.baseInstant = baseInstant;
    }
  }

  private final WriteSetup setup;
  private final WritePlanner planner;
  private final WriteOperation op;
  private final PreparedBatch.Budget budget;
  private final WriteRecordSerializer sizes;
  private final ExternalSorter<WriteRecord> updates;
  private final ExternalSorter<WriteRecord> inserts;
  private final Map<String, List<BaseFile>> smallFiles = new HashMap<>();
  private final Map<FileGroupId, String> prefixes = new HashMap<>();
  private final TreeMap<String, Group> groups = new TreeMap<>();
  private final TreeMap<String, Long> insertCounts = new TreeMap<>();
  private List<Step> steps = List.of();

  SpillingWrite(WriteSetup setup, WritePlanner planner, WriteOperation op, PreparedBatch.Budget budget) {
    this.setup = setup;
    this.planner = planner;
    this.op = op;
    this.budget = budget;
    this.sizes = serializer();
    this.updates = sorter(budget.bytes() / 4);
    this.inserts = sorter(budget.bytes() / 4);
  }

  /** Tags (unless a bulk insert) and routes every record of {@code batch}. */
  void route(PreparedBatch batch, FileSystemView view) {
    try (CloseableIterator<WriteRecord> records = batch.sorted()) {
      if (op == WriteOperation.BULK_INSERT) {
        while (records.hasNext()) {
          WriteRecord r = records.next();
          if (!r.isDelete()) {
            addInsert(r);
          }
        }
        return;
      }
      Index index = Indexes.forConfig(setup.storage(), setup.config());
      List<WriteRecord> chunk = new ArrayList<>();
      long bytes = 0;
      while (records.hasNext()) {
        WriteRecord r = records.next();
        chunk.add(r);
        bytes += sizes.estimateSize(r);
        if (bytes >= budget.bytes() / 2) {
          tag(index, chunk, view);
          chunk = new ArrayList<>();
          bytes = 0;
        }
      }
      if (!chunk.isEmpty()) {
        tag(index, chunk, view);
      }
    }
  }

  /** Plans the write from the routed counts (after {@link #route}); {@code previous} as for widening rewrites. */
  List<Step> plan(FileSystemView view, Optional<Schema> previous) {
    TreeSet<String> partitions = new TreeSet<>(insertCounts.keySet());
    groups.values().forEach(g -> partitions.add(g.id.partitionPath()));
    List<Step> out = new ArrayList<>();
    for (String p : partitions) {
      long n = insertCounts.getOrDefault(p, 0L);
      long taken = op == WriteOperation.BULK_INSERT ? 0 : planExisting(p, n, view, out);
      String prefix = FileNames.newFileIdPrefix();
      List<Long> sizesOfNew = planner.newFileGroupSizes(n - taken);
      for (int b = 0; b < sizesOfNew.size(); b++) {
        out.add(new Step(Kind.CREATE, new FileGroupId(p, FileNames.fileId(prefix, b)), Optional.empty(),
            Optional.empty(), 0, sizesOfNew.get(b)));
      }
    }
    // a widening rewrite adds merges without records, which read nothing from the streams
    List<FileGroupWrite> shadow = new ArrayList<>(out.size());
    for (Step s : out) {
      shadow.add(switch (s.kind()) {
        case MERGE -> new FileGroupWrite.Merge(s.id(), s.current().orElseThrow(), Map.of(), List.of());
        case APPEND -> new FileGroupWrite.Append(s.id(), s.slice().orElseThrow(), Map.of());
        case CREATE -> new FileGroupWrite.Create(s.id(), List.of());
      });
    }
    List<FileGroupWrite> completed = WideningRewrite.complete(shadow, view, setup, previous);
    for (FileGroupWrite w : completed.subList(shadow.size(), completed.size())) {
      FileGroupWrite.Merge m = (FileGroupWrite.Merge) w;
      out.add(new Step(Kind.MERGE, m.id(), Optional.of(m.current()), Optional.empty(), 0, 0));
    }
    steps = out;
    return out;
  }

  /** The plan's counts, for the inflight file. */
  List<WorkloadProfile.Planned> profile() {
    List<WorkloadProfile.Planned> out = new ArrayList<>(steps.size());
    for (Step s : steps) {
      String prev = switch (s.kind()) {
        case MERGE -> s.current().orElseThrow().instantTime();
        case APPEND -> s.slice().orElseThrow().baseInstant();
        case CREATE -> "";
      };
      out.add(new WorkloadProfile.Planned(s.id(), s.kind() != Kind.CREATE, prev, s.updates(), s.inserts()));
    }
    return out;
  }

  /** The partitions the plan writes to. */
  Set<String> partitions() {
    Set<String> out = new LinkedHashSet<>();
    steps.forEach(s -> out.add(s.id().partitionPath()));
    return out;
  }

  /** Writes every planned file group, one at a time, from the sorted streams. */
  List<FileWriteResult> apply(Markers markers, String instant) {
    CreateHandle creates = new CreateHandle(setup, markers, instant);
    MergeHandle merges = new MergeHandle(setup, markers, instant);
    AppendHandle appends = new AppendHandle(setup, markers, instant);
    // the tails go to disk so that one file group's updates can have the memory
    updates.spill();
    inserts.spill();
    List<FileWriteResult> out = new ArrayList<>();
    try (Cursor updateStream = new Cursor(updates.sorted()); Cursor insertStream = new Cursor(inserts.sorted())) {
      for (int i = 0; i < steps.size(); i++) {
        Step s = steps.get(i);
        Iterator<WriteRecord> groupUpdates = updateStream.take(s.updates(), true);
        Iterator<WriteRecord> groupInserts = insertStream.take(s.inserts(), false);
        switch (s.kind()) {
          case MERGE -> out.add(merge(merges, s, groupUpdates, groupInserts, i));
          case APPEND -> out.addAll(appends.write(s.id(), s.slice().orElseThrow(), groupUpdates, i,
              Math.max(1, budget.bytes() / 8), sizes::estimateSize));
          default -> out.addAll(creates.write(s.id(), groupInserts, s.inserts(), i));
        }
        if (groupUpdates.hasNext() || groupInserts.hasNext()) {
          throw Errors.internal("file group " + s.id() + " did not take all its planned records", null);
        }
      }
      if (updateStream.hasNext() || insertStream.hasNext()) {
        throw Errors.internal("records were routed but not planned", null);
      }
    }
    return out;
  }

  /** Deletes the spill files. */
  @Override
  public void close() {
    try {
      updates.close();
    } finally {
      inserts.close();
    }
  }

  private FileWriteResult merge(MergeHandle merges, Step s, Iterator<WriteRecord> groupUpdates,
      Iterator<WriteRecord> groupInserts, int index) {
    try (SpillableMap<WriteRecord> pending = SpillableMap.builder(serializer())
        .memoryBudgetBytes(budget.bytes() / 2)
        .spillDirectory(budget.spillDirectory())
        .build()) {
      while (groupUpdates.hasNext()) {
        WriteRecord r = groupUpdates.next();
        pending.put(r.key(), r);
      }
      return merges.write(s.id(), s.current().orElseThrow(), new MergeHandle.PendingUpdates() {
        @Override
        public boolean isEmpty() {
          return pending.size() == 0;
        }

        @Override
        public Optional<WriteRecord> take(String key) {
          return pending.remove(key);
        }

        @Override
        public Iterator<WriteRecord> rest() {
          return pending.entries().map(Map.Entry::getValue);
        }
      }, groupInserts, s.inserts(), index);
    }
  }

  /** Plans the small files and existing file groups of {@code p}; returns how many of its inserts they take. */
  private long planExisting(String p, long n, FileSystemView view, List<Step> out) {
    List<BaseFile> small = smallFilesOf(p, view);
    long taken = 0;
    for (int rank = 0; rank < small.size(); rank++) {
      BaseFile f = small.get(rank);
      FileGroupId id = new FileGroupId(p, f.fileId());
      long take = Math.min(planner.smallFileCapacity(f), n - taken);
      Group g = groups.get(prefixOf(id, view));
      long u = g == null ? 0 : g.count;
      if (u > 0 || take > 0) {
        out.add(new Step(Kind.MERGE, id, Optional.of(f), Optional.empty(), u, take));
      }
      taken += take;
    }
    Map<String, BaseFile> current = new HashMap<>();
    view.latestBaseFiles(p).forEach(f -> current.put(f.fileId(), f));
    Map<String, FileSlice> slices = new HashMap<>();
    if (planner.mergeOnRead()) {
      view.latestSlices(p).forEach(s -> slices.put(s.id().fileId(), s));
    }
    NavigableMap<String, Group> others = groups.subMap(p + SEP + "1", true, p + SEP + "2", false);
    for (Group g : others.values()) {
      String fileId = g.id.fileId();
      if (planner.mergeOnRead()) {
        FileSlice slice = Optional.ofNullable(slices.get(fileId)).orElseThrow(() -> gone(g));
        out.add(new Step(Kind.APPEND, g.id, Optional.empty(), Optional.of(slice), g.count, 0));
      } else {
        BaseFile f = Optional.ofNullable(current.get(fileId)).orElseThrow(() -> gone(g));
        out.add(new Step(Kind.MERGE, g.id, Optional.of(f), Optional.empty(), g.count, 0));
      }
    }
    return taken;
  }

  private static RuntimeException gone(Group g) {
    return Errors.conflict("Write to file group " + g.id,
        "its base file of instant " + g.baseInstant + " is no longer the latest");
  }

  private void tag(Index index, List<WriteRecord> chunk, FileSystemView view) {
    for (TaggedRecord t : index.tag(chunk, view)) {
      WriteRecord r = t.record();
      if (t.location().isPresent()) {
        Location loc = t.location().get();
        FileGroupId id = new FileGroupId(loc.partitionPath(), loc.fileId());
        String prefix = prefixOf(id, view);
        groups.computeIfAbsent(prefix, k -> new Group(id, loc.baseInstant())).count++;
        updates.add(prefix + r.key(), r);
      } else if (!r.isDelete()) {
        addInsert(r);
      }
    }
  }

  private void addInsert(WriteRecord r) {
    inserts.add(r.partitionPath() + SEP + r.key(), r);
    insertCounts.merge(r.partitionPath(), 1L, Long::sum);
  }

  /**
   * The sort-key prefix of a file group's updates: partition, then {@code 0} and the rank of a small file (in the
   * order small files take inserts) or {@code 1} and the file id.
   */
  private String prefixOf(FileGroupId id, FileSystemView view) {
    return prefixes.computeIfAbsent(id, k -> {
      List<BaseFile> small = smallFilesOf(id.partitionPath(), view);
      for (int rank = 0; rank < small.size(); rank++) {
        if (small.get(rank).fileId().equals(id.fileId())) {
          return id.partitionPath() + SEP + String.format("0%09d", rank) + SEP;
        }
      }
      return id.partitionPath() + SEP + "1" + id.fileId() + SEP;
    });
  }

  private List<BaseFile> smallFilesOf(String partition, FileSystemView view) {
    return smallFiles.computeIfAbsent(partition, p -> planner.smallFileCandidates(p, view));
  }

  private WriteRecordSerializer serializer() {
    return new WriteRecordSerializer(setup.userSchema(), setup.tableConfig().precombineField());
  }

  private ExternalSorter<WriteRecord> sorter(long bytes) {
    return ExternalSorter.builder(serializer())
        .memoryBudgetBytes(Math.max(1, bytes))
        .spillDirectory(budget.spillDirectory())
        .build();
  }

  /** A sorted stream handed out in consecutive slices, one per file group. */
  private static final class Cursor implements Closeable {
    private final CloseableIterator<Map.Entry<String, WriteRecord>> pairs;
    private Map.Entry<String, WriteRecord> ahead;

    Cursor(CloseableIterator<Map.Entry<String, WriteRecord>> pairs) {
      this.pairs = pairs;
    }

    boolean hasNext() {
      return ahead != null || pairs.hasNext();
    }

    Map.Entry<String, WriteRecord> next() {
      Map.Entry<String, WriteRecord> e = ahead != null ? ahead : pairs.next();
      ahead = null;
      return e;
    }

    /**
     * The next {@code n} entries' records; with {@code lastOfKey}, entries of one sort key collapse into the last
     * (a batch not combined may hold a key twice: the later version is the one kept, as a map put keeps it).
     */
    Iterator<WriteRecord> take(long n, boolean lastOfKey) {
      return new Iterator<>() {
        private long left = n;

        @Override
        public boolean hasNext() {
          return left > 0;
        }

        @Override
        public WriteRecord next() {
          if (left <= 0 || !Cursor.this.hasNext()) {
            throw Errors.internal("the sorted stream ended before its planned records", null);
          }
          Map.Entry<String, WriteRecord> e = Cursor.this.next();
          left--;
          while (lastOfKey && left > 0 && Cursor.this.hasNext()) {
            Map.Entry<String, WriteRecord> more = Cursor.this.next();
            if (!more.getKey().equals(e.getKey())) {
              ahead = more;
              break;
            }
            e = more;
            left--;
          }
          return e.getValue();
        }
      };
    }

    @Override
    public void close() {
      pairs.close();
    }
  }
}
