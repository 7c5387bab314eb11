package dev.sluice.internal.write;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.FileWriteResult;
import dev.sluice.api.WriteOperation;
import dev.sluice.api.WriteToken;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.index.Index;
import dev.sluice.internal.index.Indexes;
import dev.sluice.internal.index.Location;
import dev.sluice.internal.index.TaggedRecord;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.spill.ExternalSorter;
import dev.sluice.internal.util.ProgressMeter;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A batch whose prepared records passed the write memory budget ({@code hoodie.memory.merge.max.size}), as a
 * {@link PlanSource}. The batch comes out of {@link PreparedBatch#sorted()} combined and in key order; it is tagged
 * in chunks of half the budget with the configured index and put into two external sorts: updates by
 * {@link WritePlanner#planOrder} of their file group and by key, inserts by partition and key. {@link WritePlanner}
 * plans from the counts alone, in the order the sorts give the records, so the file groups are then written one
 * after another from the two sorted streams, each by {@link FileGroupUnits#write} (the unit a cluster's task runs):
 * a merge holds its group's updates in a spillable map of half the budget, a create and a log append read their
 * records as a stream (an append writes a data and/or delete block per eighth of the budget).
 *
 * <p>Memory: about half the budget for the chunk being tagged, a quarter for each sort's in-memory tail, and the
 * sort merges' read buffers; while writing, half the budget for one file group's updates in memory. Not
 * thread-safe; {@link #close()} deletes every spill file.
 */
final class SpillingWrite implements PlanSource {
  private static final char SEP = '\u0000';

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
  private final Map<String, Group> groups = new HashMap<>();
  private final TreeMap<String, Long> insertCounts = new TreeMap<>();
  private final OutcomeCounts counts;

  SpillingWrite(WriteSetup setup, WritePlanner planner, WriteOperation op, PreparedBatch.Budget budget) {
    this(setup, planner, op, budget, new OutcomeCounts());
  }

  /** A spilling write that counts deletes of unknown keys and collapsed updates into {@code counts}. */
  SpillingWrite(WriteSetup setup, WritePlanner planner, WriteOperation op, PreparedBatch.Budget budget,
      OutcomeCounts counts) {
    this.counts = counts;
    this.setup = setup;
    this.planner = planner;
    this.op = op;
    this.budget = budget;
    this.sizes = serializer();
    this.updates = sorter(budget.bytes() / 4);
    this.inserts = sorter(budget.bytes() / 4);
  }

  /** Tags (unless a bulk insert) and routes every record of {@code batch}. */
  void route(PreparedBatch batch, FileSystemView view, ProgressMeter tag) {
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
      Index index = Indexes.of(setup.storage(), setup.indexedTable(), setup.settings().index());
      List<WriteRecord> chunk = new ArrayList<>();
      long bytes = 0;
      while (records.hasNext()) {
        WriteRecord r = records.next();
        chunk.add(r);
        bytes += sizes.estimateSize(r);
        if (bytes >= budget.bytes() / 2) {
          tag(index, chunk, view);
          tag.advance(chunk.size());
          chunk = new ArrayList<>();
          bytes = 0;
        }
      }
      if (!chunk.isEmpty()) {
        tag(index, chunk, view);
        tag.advance(chunk.size());
      }
    }
  }

  @Override
  public Collection<TaggedGroup> taggedGroups() {
    List<TaggedGroup> out = new ArrayList<>(groups.size());
    groups.values().forEach(g -> out.add(new TaggedGroup(g.id, g.baseInstant, g.count)));
    return out;
  }

  @Override
  public Map<String, Long> insertCounts() {
    return insertCounts;
  }

  /** Writes every planned file group, one at a time, from the sorted streams (the plan's order is theirs). */
  @Override
  public List<FileWriteResult> apply(List<FileGroupWrite> plan, Handles handles) {
    // the tails go to disk so that one file group's updates can have the memory
    updates.spill();
    inserts.spill();
    List<FileWriteResult> out = new ArrayList<>();
    try (Cursor updateStream = new Cursor(updates.sorted(), counts);
        Cursor insertStream = new Cursor(inserts.sorted(), counts)) {
      for (int i = 0; i < plan.size(); i++) {
        FileGroupWrite w = plan.get(i);
        Iterator<WriteRecord> groupUpdates = updateStream.take(w.updates(), true);
        Iterator<WriteRecord> groupInserts = insertStream.take(w.inserts(), false);
        // the same unit of work a cluster's task runs for one file group
        GroupProgress progress = GroupProgress.of(handles.written(), w);
        out.addAll(FileGroupUnits.write(setup, handles, budget, w, progress.count(groupUpdates),
            progress.count(groupInserts), WriteToken.of(i)));
        progress.done();
        if (groupUpdates.hasNext() || groupInserts.hasNext()) {
          throw Errors.internal("file group " + w.id() + " did not take all its planned records", null);
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

  private void tag(Index index, List<WriteRecord> chunk, FileSystemView view) {
    for (TaggedRecord t : index.tag(chunk, view)) {
      WriteRecord r = t.record();
      if (t.location().isPresent()) {
        Location loc = t.location().get();
        FileGroupId id = new FileGroupId(loc.partitionPath(), loc.fileId());
        String prefix = planner.planOrder(id, view);
        groups.computeIfAbsent(prefix, k -> new Group(id, loc.baseInstant())).count++;
        updates.add(prefix + r.key(), r);
      } else if (!r.isDelete()) {
        addInsert(r);
      } else {
        counts.deletesNotFound.increment();
      }
    }
  }

  private void addInsert(WriteRecord r) {
    inserts.add(r.partitionPath() + SEP + r.key(), r);
    insertCounts.merge(r.partitionPath(), 1L, Long::sum);
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
    private final OutcomeCounts counts;

    Cursor(CloseableIterator<Map.Entry<String, WriteRecord>> pairs, OutcomeCounts counts) {
      this.pairs = pairs;
      this.counts = counts;
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
            counts.combined.increment();
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
