package dev.sluice.internal.spill;

import dev.sluice.internal.error.Errors;
import dev.sluice.api.CloseableIterator;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * Sorts {@code (key, value)} pairs by key within a memory budget: pairs collect in memory until their estimated
 * heap passes the budget, then are sorted and written to a run file on local disk; {@link #sorted()} merges the
 * runs and the in-memory tail in one k-way merge. For bulk inserts larger than memory.
 *
 * <p>Keys sort by {@link String#compareTo} (UTF-16 code units). The sort is stable: pairs with equal keys come
 * out in the order they were added (within a run the sort is stable; across runs, earlier runs win ties).
 * Duplicates are kept. When there are more than {@code mergeFanIn} runs, runs are first merged into longer ones,
 * byte for byte without decoding values, so open files and read buffers stay bounded.
 *
 * <p>Memory: up to the budget of pairs, plus during the merge one read buffer per run (16 KiB–1 MiB, at most
 * half the budget together). Costs: each pair is encoded and written once per merge pass (one pass unless there are more than the
 * fan-in runs) and read sequentially; the final merge compares keys only and decodes each value once. Not
 * thread-safe. {@link #close()} deletes every run file.
 *
 * @param <V> value type
 */
public final class ExternalSorter<V> implements Closeable {
  /** An {@code Map.Entry} (24 bytes) and its list slot. */
  private static final long ENTRY_OVERHEAD = 32;
  private static final int MIN_READ_BUFFER = 16 << 10;
  private static final int MAX_READ_BUFFER = 1 << 20;

  private final long budget;
  private final RecordSerializer<V> serializer;
  private final Path directory;
  private final int mergeFanIn;
  private final int writeBufferBytes;
  private final List<Map.Entry<String, V>> buffer = new ArrayList<>();
  private final List<SpillFile> runs = new ArrayList<>();
  private final ByteSink keyBytes = new ByteSink(64);
  private final ByteSink valueBytes = new ByteSink(256);
  private long bufferBytes;
  private long added;
  private boolean sorting;
  private boolean closed;

  private ExternalSorter(Builder<V> b) {
    this.budget = b.memoryBudgetBytes;
    this.serializer = b.serializer;
    this.directory = b.spillDirectory;
    this.mergeFanIn = b.mergeFanIn;
    this.writeBufferBytes = b.writeBufferBytes;
  }

  /** A builder for a sorter whose values {@code serializer} writes. */
  public static <V> Builder<V> builder(RecordSerializer<V> serializer) {
    return new Builder<>(serializer);
  }

  /** Adds one pair; may write a sorted run to disk. */
  public void add(String key, V value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    if (closed || sorting) {
      throw new IllegalStateException("ExternalSorter is " + (closed ? "closed" : "already sorting"));
    }
    buffer.add(Map.entry(key, value));
    bufferBytes += ENTRY_OVERHEAD + Serializers.stringHeap(key.length()) + serializer.estimateSize(value);
    added++;
    if (bufferBytes > budget) {
      SpillFile run = newRun();
      try {
        writeRun(run);
      } catch (IOException e) {
        throw Errors.storage("write sort run", run.path().toString(), e);
      }
    }
  }

  /**
   * Writes the pairs held in memory as a run now (nothing if none are held), so that after this call only the
   * merge's read buffers stay on the heap; for a caller that needs the memory for the next step.
   */
  public void spill() {
    if (closed || sorting) {
      throw new IllegalStateException("ExternalSorter is " + (closed ? "closed" : "already sorting"));
    }
    if (buffer.isEmpty()) {
      return;
    }
    SpillFile run = newRun();
    try {
      writeRun(run);
    } catch (IOException e) {
      throw Errors.storage("write sort run", run.path().toString(), e);
    }
  }

  /** Pairs added so far. */
  public long size() {
    return added;
  }

  /** Sorted runs on disk so far. */
  public int runCount() {
    return runs.size();
  }

  /** Bytes in the run files on disk. */
  public long spilledBytes() {
    long total = 0;
    for (SpillFile run : runs) {
      total += run.length();
    }
    return total;
  }

  /**
   * Every pair added, in key order; call once, after the last {@link #add}. The iterator reads the run files,
   * so it must be closed (or exhausted) before this sorter is.
   */
  public CloseableIterator<Map.Entry<String, V>> sorted() {
    if (closed || sorting) {
      throw new IllegalStateException("ExternalSorter is " + (closed ? "closed" : "already sorting"));
    }
    sorting = true;
    buffer.sort(Map.Entry.comparingByKey());
    if (runs.isEmpty()) {
      return CloseableIterator.of(buffer);
    }
    try {
      while (runs.size() > mergeFanIn) {
        mergeOldestRuns();
      }
      List<Source> sources = new ArrayList<>();
      int bufferEach = readBufferEach(runs.size());
      for (int i = 0; i < runs.size(); i++) {
        sources.add(new RunSource(i, new SpillScanner(runs.get(i).channelForScan(), runs.get(i).length(),
            bufferEach)));
      }
      sources.add(new MemorySource(runs.size(), buffer));
      return new Merge(sources);
    } catch (IOException e) {
      throw Errors.storage("read sort runs in", directory.toString(), e);
    }
  }

  /** Deletes every run file. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    buffer.clear();
    IOException failure = null;
    for (SpillFile run : runs) {
      try {
        run.close();
      } catch (IOException e) {
        failure = e;
      }
    }
    runs.clear();
    if (failure != null) {
      throw Errors.storage("delete sort runs in", directory.toString(), failure);
    }
  }

  private SpillFile newRun() {
    return new SpillFile(directory, "sluice-sort-", writeBufferBytes);
  }

  private int readBufferEach(int sources) {
    // All read buffers together take at most half the budget, next to an in-memory tail of up to the budget.
    long share = budget / (2L * (sources + 1));
    return (int) Math.max(MIN_READ_BUFFER, Math.min(MAX_READ_BUFFER, share));
  }

  private void writeRun(SpillFile run) throws IOException {
    buffer.sort(Map.Entry.comparingByKey());
    runs.add(run);
    for (Map.Entry<String, V> e : buffer) {
      KeyBytes.encode(e.getKey(), keyBytes);
      valueBytes.reset();
      serializer.write(e.getValue(), valueBytes);
      run.append(keyBytes.array(), keyBytes.size(), valueBytes.array(), valueBytes.size());
    }
    run.seal();
    buffer.clear();
    bufferBytes = 0;
  }

  /** Merges the {@code mergeFanIn} oldest runs into one, copying records without decoding values. */
  private void mergeOldestRuns() throws IOException {
    List<SpillFile> oldest = new ArrayList<>(runs.subList(0, mergeFanIn));
    SpillFile merged = newRun();
    PriorityQueue<RunSource> queue = new PriorityQueue<>(Source.ORDER);
    int bufferEach = readBufferEach(oldest.size());
    try {
      for (int i = 0; i < oldest.size(); i++) {
        RunSource s = new RunSource(i, new SpillScanner(oldest.get(i).channelForScan(), oldest.get(i).length(),
            bufferEach));
        if (s.advance()) {
          queue.add(s);
        }
      }
      while (!queue.isEmpty()) {
        RunSource s = queue.poll();
        SpillScanner scan = s.scan;
        merged.appendRecord(scan.recordArray(), scan.recordStart(), scan.recordLength());
        if (s.advance()) {
          queue.add(s);
        }
      }
      merged.seal();
    } catch (IOException e) {
      merged.close();
      throw e;
    }
    runs.subList(0, mergeFanIn).clear();
    // The merged run holds the oldest pairs, so it goes first to keep ties in insertion order.
    runs.add(0, merged);
    for (SpillFile run : oldest) {
      run.close();
    }
  }

  /** A sorted source of pairs in the merge; {@code rank} breaks ties (lower is older). */
  private abstract static class Source {
    static final Comparator<Source> ORDER = Comparator.<Source, String>comparing(s -> s.key)
        .thenComparingInt(s -> s.rank);
    final int rank;
    String key;

    Source(int rank) {
      this.rank = rank;
    }

    /** Moves to the next pair, setting {@link #key}; false when exhausted. */
    abstract boolean advance() throws IOException;
  }

  private static final class RunSource extends Source {
    final SpillScanner scan;

    RunSource(int rank, SpillScanner scan) {
      super(rank);
      this.scan = scan;
    }

    @Override
    boolean advance() throws IOException {
      if (!scan.next()) {
        return false;
      }
      key = scan.key();
      return true;
    }
  }

  private final class MemorySource extends Source {
    private final List<Map.Entry<String, V>> entries;
    private int next;

    MemorySource(int rank, List<Map.Entry<String, V>> entries) {
      super(rank);
      this.entries = entries;
    }

    @Override
    boolean advance() {
      if (next >= entries.size()) {
        return false;
      }
      key = entries.get(next++).getKey();
      return true;
    }

    V value() {
      return entries.get(next - 1).getValue();
    }
  }

  /** The k-way merge of the sources by key, then rank. */
  private final class Merge implements CloseableIterator<Map.Entry<String, V>> {
    private final PriorityQueue<Source> queue = new PriorityQueue<>(Source.ORDER);
    private final List<Source> pending = new ArrayList<>();
    private boolean open = true;

    Merge(List<Source> sources) {
      pending.addAll(sources);
    }

    @Override
    public boolean hasNext() {
      if (!open) {
        return false;
      }
      if (closed) {
        throw new IllegalStateException("ExternalSorter closed while its sorted pairs were read");
      }
      try {
        // Sources whose pair was handed out last are advanced lazily, so a record's bytes stay valid until then.
        for (Source s : pending) {
          if (s.advance()) {
            queue.add(s);
          }
        }
        pending.clear();
      } catch (IOException e) {
        throw Errors.storage("read sort runs in", directory.toString(), e);
      }
      if (queue.isEmpty()) {
        open = false;
      }
      return open;
    }

    @Override
    public Map.Entry<String, V> next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Source s = queue.poll();
      pending.add(s);
      V value;
      if (s instanceof RunSource run) {
        try {
          ByteSource bytes = run.scan.value();
          value = serializer.read(bytes);
        } catch (IOException e) {
          throw Errors.storage("read sort runs in", directory.toString(), e);
        }
      } else {
        @SuppressWarnings("unchecked")
        MemorySource memory = (MemorySource) s;
        value = memory.value();
      }
      return Map.entry(s.key, value);
    }

    @Override
    public void close() {
      open = false;
      queue.clear();
      pending.clear();
    }
  }

  /**
   * Options of an {@link ExternalSorter}.
   *
   * @param <V> value type
   */
  public static final class Builder<V> {
    private final RecordSerializer<V> serializer;
    private long memoryBudgetBytes = 64L << 20;
    private Path spillDirectory;
    private int mergeFanIn = 64;
    private int writeBufferBytes = 256 << 10;

    private Builder(RecordSerializer<V> serializer) {
      this.serializer = Objects.requireNonNull(serializer, "serializer");
    }

    /** Estimated heap bytes of pairs to hold before writing a run (default 64 MiB). */
    public Builder<V> memoryBudgetBytes(long bytes) {
      if (bytes < 0) {
        throw Errors.badRequest("External sorter memory budget " + bytes, "it is negative", "Use 0 or more bytes.");
      }
      this.memoryBudgetBytes = bytes;
      return this;
    }

    /** The local directory for run files (required); created on the first run if missing. */
    public Builder<V> spillDirectory(Path directory) {
      this.spillDirectory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /** Most runs merged at once (default 64, at least 2). */
    public Builder<V> mergeFanIn(int runs) {
      if (runs < 2) {
        throw Errors.badRequest("External sorter merge fan-in " + runs, "it is below 2", "Use 2 or more.");
      }
      this.mergeFanIn = runs;
      return this;
    }

    /** Write buffer of each run file (default 256 KiB). */
    public Builder<V> writeBufferBytes(int bytes) {
      this.writeBufferBytes = bytes;
      return this;
    }

    /** The sorter; nothing is written until the first run. */
    public ExternalSorter<V> build() {
      if (spillDirectory == null) {
        throw Errors.badRequest("External sorter", "no spill directory was given",
            "Set a local directory with spillDirectory(...).");
      }
      return new ExternalSorter<>(this);
    }
  }
}
