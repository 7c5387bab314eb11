package dev.sluice.internal.write;

import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.spill.ExternalSorter;
import dev.sluice.api.CloseableIterator;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The prepared records of one write. While their estimated heap stays within the write budget they are held as
 * before (duplicates combined in a {@link LinkedHashMap}, in arrival order); past it every record goes to an
 * {@link ExternalSorter} keyed by the combine key (partition path and record key, or the key alone for a global
 * index), and duplicates are combined as they come out of the sort next to each other. The sort is stable, so
 * the rule is the same on both paths: the larger ordering value wins, a tie goes to the later record.
 */
final class PreparedBatch implements Closeable {
  /** A {@code LinkedHashMap} entry (or list slot) and the record object around the data. */
  private static final long ENTRY_OVERHEAD = 64;

  /**
   * How much heap the prepared records may take before they spill, and where they spill to.
   *
   * @param bytes estimated heap bytes of prepared records to hold in memory
   * @param spillDirectory local folder for sort runs and spill files
   */
  record Budget(long bytes, Path spillDirectory) {
    /** Never spills. */
    static final Budget UNBOUNDED = new Budget(Long.MAX_VALUE, Path.of(System.getProperty("java.io.tmpdir")));
  }

  private final boolean combine;
  private final boolean globalKeys;
  private final RecordMerger merger;
  private final Budget budget;
  private final Supplier<WriteRecordSerializer> serializers;
  private final WriteRecordSerializer sizes;
  private final OutcomeCounts counts;
  private final Map<String, WriteRecord> byKey = new LinkedHashMap<>();
  private final List<WriteRecord> all = new ArrayList<>();
  private long heapBytes;
  private long added;
  private Optional<ExternalSorter<WriteRecord>> sorter = Optional.empty();

  PreparedBatch(boolean combine, boolean globalKeys, RecordMerger merger, Budget budget,
      Supplier<WriteRecordSerializer> serializers) {
    this(combine, globalKeys, merger, budget, serializers, new OutcomeCounts());
  }

  /** A batch that counts what it receives and combines into {@code counts}. */
  PreparedBatch(boolean combine, boolean globalKeys, RecordMerger merger, Budget budget,
      Supplier<WriteRecordSerializer> serializers, OutcomeCounts counts) {
    this.counts = counts;
    this.combine = combine;
    this.globalKeys = globalKeys;
    this.merger = merger;
    this.budget = budget;
    this.serializers = serializers;
    this.sizes = budget.bytes() == Long.MAX_VALUE ? null : serializers.get();
  }

  /** Adds the next record of the batch. */
  void add(WriteRecord rec) {
    added++;
    counts.received.increment();
    String key = combineKey(rec);
    if (sorter.isPresent()) {
      sorter.get().add(key, rec);
      return;
    }
    if (!combine) {
      all.add(rec);
    } else {
      WriteRecord prev = byKey.get(key);
      if (prev != null) {
        counts.combined.increment();
      }
      if (prev != null && !wins(prev, rec)) {
        return;
      }
      byKey.put(key, rec);
      if (prev != null && sizes != null) {
        heapBytes -= ENTRY_OVERHEAD + sizes.estimateSize(prev);
      }
    }
    if (sizes != null) {
      heapBytes += ENTRY_OVERHEAD + sizes.estimateSize(rec);
      if (heapBytes > budget.bytes()) {
        startSpilling();
      }
    }
  }

  /** True if the records passed the budget and are sorted on disk. */
  boolean spilled() {
    return sorter.isPresent();
  }

  /** Records added (before combining). */
  long added() {
    return added;
  }

  /** The records held in memory, combined, in arrival order; only for a batch that did not spill. */
  List<WriteRecord> records() {
    if (spilled()) {
      throw new IllegalStateException("the batch spilled to disk: read it with sorted()");
    }
    return combine ? new ArrayList<>(byKey.values()) : all;
  }

  /**
   * The records, combined, in combine-key order (duplicates of a key kept in arrival order if not combining);
   * call once. The in-memory pairs are written out first, so only the merge's read buffers stay on the heap.
   */
  CloseableIterator<WriteRecord> sorted() {
    if (!spilled()) {
      throw new IllegalStateException("the batch is in memory: read it with records()");
    }
    sorter.get().spill();
    CloseableIterator<Map.Entry<String, WriteRecord>> pairs = sorter.get().sorted();
    return combine ? new Combined(pairs) : pairs.map(Map.Entry::getValue);
  }

  /** Deletes the sort runs, if any. */
  @Override
  public void close() {
    byKey.clear();
    sorter.ifPresent(ExternalSorter::close);
  }

  private String combineKey(WriteRecord r) {
    return globalKeys ? r.key() : r.partitionPath() + '\u0000' + r.key();
  }

  private boolean wins(WriteRecord older, WriteRecord newer) {
    return merger.newerWins(older.ordering(), older.delete() == WriteRecord.DeleteKind.HARD, newer.ordering());
  }

  private void startSpilling() {
    ExternalSorter<WriteRecord> s = ExternalSorter.builder(serializers.get())
        .memoryBudgetBytes(budget.bytes())
        .spillDirectory(budget.spillDirectory())
        .build();
    sorter = Optional.of(s);
    // moved one by one, so the records are never held twice
    Iterator<WriteRecord> held = combine ? byKey.values().iterator() : all.iterator();
    while (held.hasNext()) {
      WriteRecord r = held.next();
      held.remove();
      s.add(combineKey(r), r);
    }
    all.clear();
    heapBytes = 0;
  }

  /** The winner of each run of equal combine keys in the sorted stream. */
  private final class Combined implements CloseableIterator<WriteRecord> {
    private final CloseableIterator<Map.Entry<String, WriteRecord>> pairs;
    private Map.Entry<String, WriteRecord> ahead;

    Combined(CloseableIterator<Map.Entry<String, WriteRecord>> pairs) {
      this.pairs = pairs;
      this.ahead = pairs.hasNext() ? pairs.next() : null;
    }

    @Override
    public boolean hasNext() {
      return ahead != null;
    }

    @Override
    public WriteRecord next() {
      if (ahead == null) {
        throw new NoSuchElementException();
      }
      String key = ahead.getKey();
      WriteRecord winner = ahead.getValue();
      ahead = null;
      while (pairs.hasNext()) {
        Map.Entry<String, WriteRecord> e = pairs.next();
        if (!e.getKey().equals(key)) {
          ahead = e;
          break;
        }
        counts.combined.increment();
        if (wins(winner, e.getValue())) {
          winner = e.getValue();
        }
      }
      return winner;
    }

    @Override
    public void close() {
      ahead = null;
      pairs.close();
    }
  }
}
