package dev.sluice.internal.log;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.merge.Ordering;
import dev.sluice.internal.merge.PartialUpdate;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.storage.Storage;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.api.CloseableIterator;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;

/**
 * Merges the log files of one file slice into the latest state per record key, as Hudi 0.15's merged log record
 * scanner does ({@code AbstractHoodieLogRecordReader.scanInternalV1}, {@code HoodieMergedLogRecordScanner}):
 * <ol>
 *   <li>Blocks are read file by file in log order. A data or delete block whose instant is after the query
 *       instant is skipped. Hudi 0.15 stops the whole scan at the first such block, which equals skipping only while
 *       the log order is the instant order; it is not when a later instant's file sorts before an earlier committed
 *       one (two writers that ran at the same time, or a pending write's file in front of a committed write's), and
 *       stopping then hides committed blocks, both from the latest snapshot and from time travel. Hudi 1.x skips as
 *       well.</li>
 *   <li>Data and delete blocks of instants that are not completed commits/deltacommits (nor older than the
 *       timeline's start), or that are inflight, are skipped: they come from failed or running writes. Command
 *       blocks count whatever the state of their instant.</li>
 *   <li>Data, delete and corrupt blocks wait in a pending list. A rollback command removes from it every block
 *       of its target instant, from every file read so far, and every corrupt block.</li>
 *   <li>At the end the pending blocks are applied oldest first. A data record replaces the key's entry if the
 *       entry is a delete or its ordering value is not larger (ties go to the later block). A delete replaces a
 *       data entry unless its ordering value is set (not {@code Integer 0}), of the entry's class, and smaller.</li>
 * </ol>
 * Only block headers are read during the scan; record contents are streamed when the pending blocks are applied.
 * The merged records are held in memory, or within a memory budget spilling to local disk
 * ({@link Builder#spillBeyond}).
 */
public final class LogScanner {
  /** Hudi's record key meta field. */
  public static final String RECORD_KEY_FIELD = "_hoodie_record_key";
  /** Hudi's partition path meta field. */
  public static final String PARTITION_PATH_FIELD = "_hoodie_partition_path";

  private final Builder options;

  private LogScanner(Builder options) {
    this.options = options;
  }

  /** Options of a scan over logs on {@code storage}. */
  public static Builder builder(Storage storage) {
    return new Builder(storage);
  }

  /** Reads and merges the log files; the result holds the merged entries and the scan's statistics. */
  public MergedLogRecords scan() {
    Builder o = options;
    Timeline commits = o.timeline.commitsTimeline();
    Timeline completed = commits.completed();
    Timeline inflight = commits.filter(Instant::isInflight);
    List<LogFile> files = new ArrayList<>(o.logFiles);
    files.sort(null);
    Deque<LogBlock> pending = new ArrayDeque<>();
    // which file each corrupt block came from, so that the ones no rollback removes can be reported
    Map<LogBlock, String> corruptIn = new IdentityHashMap<>();
    long logFiles = 0;
    long blocks = 0;
    long corrupt = 0;
    long rolledBack = 0;
    for (LogFile file : files) {
      boolean seen = false;
      try (LogReader reader = LogReader.open(o.storage, file.path())) {
        while (reader.hasNext()) {
          LogBlock block = reader.next();
          if (!seen) {
            seen = true;
            logFiles++;
          }
          blocks++;
          if (block instanceof CorruptBlock) {
            corrupt++;
            corruptIn.put(block, file.path());
            pending.addLast(block);
            continue;
          }
          String instant = block.instantTime().orElseThrow(() -> Errors.badTable(file.path(),
              "the " + block.type() + " at offset " + block.span().map(BlockSpan::offset).orElse(-1L) + " has no INSTANT_TIME header",
              LogFormat.DAMAGED_FIX));
          if (block instanceof CommandBlock command) {
            // a rollback's target never counts as committed, whenever the rollback ran: apply it even if it came
            // after the query instant (only its removal of the target's blocks matters, and those are skipped anyway
            // unless the target is older than the timeline's start)
            rolledBack += applyCommand(command, pending, file);
            continue;
          }
          if (InstantTimes.isBefore(o.latestInstant, instant)) {
            continue;
          }
          if (!completed.containsOrBeforeStart(instant) || inflight.contains(instant) || !o.instantFilter.test(instant)) {
            continue;
          }
          pending.addLast(block);
        }
      }
    }
    MutableLogRecords out = o.spillDirectory.isPresent()
        ? new SpillingLogRecords(o.readerSchema, o.precombineField, o.memoryBudget, o.spillDirectory.get())
        : new InMemoryLogRecords();
    Merge merge = new Merge(o, out);
    try {
      for (LogBlock block : pending) {
        if (block instanceof DataBlock data) {
          merge.data(data);
        } else if (block instanceof DeleteBlock deletes) {
          merge.deletes(deletes);
        }
        // corrupt blocks that no rollback removed are ignored, as Hudi does
      }
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
    out.finish(new ScanStats(logFiles, blocks, corrupt, rolledBack, merge.records, merge.deletes,
        skipped(pending, corruptIn, completed), merge.partial));
    return out;
  }

  /** The corrupt blocks still pending at the end (no rollback command removed them), with their writer if readable. */
  private List<SkippedBlock> skipped(Deque<LogBlock> pending, Map<LogBlock, String> corruptIn, Timeline completed) {
    List<SkippedBlock> out = new ArrayList<>();
    for (LogBlock b : pending) {
      if (b instanceof CorruptBlock c) {
        String path = corruptIn.get(c);
        Optional<String> instant = LogReader.headerInstant(options.storage, path, c.offset());
        out.add(new SkippedBlock(path, c.offset(), c.length(), instant,
            instant.filter(completed::containsOrBeforeStart).isPresent()));
      }
    }
    return out;
  }

  private static long applyCommand(CommandBlock command, Deque<LogBlock> pending, LogFile file) {
    if (!command.isRollback()) {
      throw Errors.unsupported("The command block type '" + command.header().get(HeaderKey.COMMAND_BLOCK_TYPE) + "' in "
          + file.path(), "Only rollback commands (type 0) exist in Hudi 0.15.");
    }
    String target = command.targetInstant().orElseThrow(() -> Errors.badTable(file.path(),
        "a rollback command block has no TARGET_INSTANT_TIME header", "Restore the file from a backup."));
    int before = pending.size();
    pending.removeIf(b -> b instanceof CorruptBlock || target.equals(b.instantTime().orElse(null)));
    // zero matches is an extra rollback block (e.g. from a retried rollback): harmless
    return before - pending.size();
  }

  /** Applies pending blocks to the merged map. */
  private static final class Merge {
    private final Builder o;
    private final MutableLogRecords out;
    private long records;
    private long deletes;
    private boolean partial;

    Merge(Builder o, MutableLogRecords out) {
      this.o = o;
      this.out = out;
    }

    void data(DataBlock block) {
      if (Boolean.parseBoolean(block.header().getOrDefault(HeaderKey.IS_PARTIAL, "false"))) {
        partialData(block);
        return;
      }
      try (CloseableIterator<GenericRecord> it = block.records(o.readerSchema)) {
        while (it.hasNext()) {
          record(it.next(), block, Optional.empty());
          records++;
        }
      }
    }

    /**
     * A Hudi 1.x partial-update block: its schema holds only the updated columns (and the meta fields). Read in its
     * own schema (Avro resolution to the table schema would fail on required columns it lacks) and copied by name
     * into the reader schema, the columns it lacks left null and remembered, so that merging fills them from the
     * older version of the key.
     */
    private void partialData(DataBlock block) {
      Schema writer = block.writerSchema();
      Set<String> columns = new HashSet<>();
      for (Schema.Field f : o.readerSchema.getFields()) {
        if (writer.getField(f.name()) != null) {
          columns.add(f.name());
        }
      }
      Optional<Set<String>> partial = Optional.of(Set.copyOf(columns));
      try (CloseableIterator<GenericRecord> it = block.records(writer)) {
        while (it.hasNext()) {
          GenericRecord in = it.next();
          GenericData.Record r = new GenericData.Record(o.readerSchema);
          for (String c : columns) {
            r.put(c, in.get(c));
          }
          record(r, block, partial);
          records++;
          this.partial = true;
        }
      }
    }

    private void record(GenericRecord r, DataBlock block, Optional<Set<String>> partial) {
      Object keyValue = r.get(o.recordKeyField);
      if (keyValue == null) {
        throw Errors.badTable(block.location(), "a record has no value in '" + o.recordKeyField + "'",
            LogFormat.DAMAGED_FIX);
      }
      String key = keyValue.toString();
      Object partitionValue = r.get(o.partitionPathField);
      String partition = partitionValue == null ? "" : partitionValue.toString();
      Object raw = rawOrdering(r);
      Comparable<?> ordering = Ordering.normalize(raw);
      LogRecord existing = out.current(key);
      boolean newer = existing == null || newerWins(existing, raw, ordering);
      if (existing == null || existing.isDelete() || (partial.isEmpty() && existing.partialColumns().isEmpty())) {
        if (newer) {
          out.put(new LogRecord(key, partition, r, ordering, false, partial));
        }
        return;
      }
      // a partial version on either side: the winner's columns, then the loser's for the columns the winner lacks
      Optional<Set<String>> columns = PartialUpdate.union(partial, existing.partialColumns());
      if (newer) {
        out.put(new LogRecord(key, partition, PartialUpdate.overlay(r, partial, existing.record()), ordering, false,
            columns));
      } else {
        out.put(new LogRecord(key, existing.partitionPath(),
            PartialUpdate.overlay(existing.record(), existing.partialColumns(), r), existing.ordering(), false, columns));
      }
    }

    private boolean newerWins(LogRecord existing, Object raw, Comparable<?> ordering) {
      if (existing.isDelete() || o.merger.latestAlwaysWins()) {
        // an earlier delete is an empty payload: the later record always replaces it
        return true;
      }
      if (existing.ordering() == null || ordering == null) {
        // Hudi fails on a null ordering value; the later record winning is the natural order
        return true;
      }
      if (raw instanceof Utf8 newer && rawOrdering(existing.record()) instanceof Utf8 older) {
        // Hudi compares Avro strings as Utf8, byte by byte, which differs from String order beyond the BMP
        return older.compareTo(newer) <= 0;
      }
      try {
        return o.merger.newerWins(existing.ordering(), false, ordering);
      } catch (ClassCastException e) {
        // values of unrelated types (a changed precombine type): fall back to arrival order
        return true;
      }
    }

    void deletes(DeleteBlock block) {
      try (CloseableIterator<DeleteRecord> it = block.records()) {
        while (it.hasNext()) {
          delete(it.next(), block);
          deletes++;
        }
      }
    }

    private void delete(DeleteRecord d, DeleteBlock block) {
      if (d.recordKey() == null) {
        throw Errors.badTable(block.location(), "a delete block entry has no record key", "Restore the file from a backup.");
      }
      Object deleteOrdering = hudiView(d.orderingValue());
      LogRecord existing = out.current(d.recordKey());
      if (existing != null && keepExisting(existing, deleteOrdering)) {
        return;
      }
      out.put(new LogRecord(d.recordKey(), d.partitionPath(), null, Ordering.normalize(deleteOrdering), true));
    }

    /**
     * Hudi keeps the existing entry only if the delete carries a real ordering value (not the natural
     * {@code Integer 0}) of the same Java class as the entry's and the entry's is larger. The class is the one
     * Hudi holds: for a data record the raw Avro value (so an Avro string, {@code Utf8}, never matches a delete's
     * {@code String}).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private boolean keepExisting(LogRecord existing, Object deleteOrdering) {
      if (o.merger.latestAlwaysWins() || deleteOrdering == null || deleteOrdering.equals(DeleteRecord.NATURAL_ORDERING)) {
        return false;
      }
      Object current = existing.isDelete() ? existing.ordering() : rawOrdering(existing.record());
      if (current == null || current.getClass() != deleteOrdering.getClass() || !(current instanceof Comparable)) {
        return false;
      }
      return ((Comparable) current).compareTo(deleteOrdering) > 0;
    }

    /** The ordering value as Hudi's payload holds it: the precombine field's raw value, or {@code Integer 0}. */
    private Object rawOrdering(GenericRecord r) {
      if (o.precombineField.isEmpty()) {
        return Ordering.NATURAL;
      }
      Schema.Field f = r.getSchema().getField(o.precombineField.get());
      return f == null ? Ordering.NATURAL : r.get(f.pos());
    }
  }

  /** A delete's ordering value as Hudi unwraps it: time-micros comes back as its long value. */
  private static Object hudiView(Object v) {
    if (v instanceof LocalTime t) {
      return t.toNanoOfDay() / 1000;
    }
    return v;
  }

  /** Options of a {@link LogScanner}. */
  public static final class Builder {
    private final Storage storage;
    private List<LogFile> logFiles = List.of();
    private Timeline timeline = Timeline.empty();
    private String latestInstant;
    private Schema readerSchema;
    private Optional<String> precombineField = Optional.empty();
    private RecordMerger merger;
    private String recordKeyField = RECORD_KEY_FIELD;
    private String partitionPathField = PARTITION_PATH_FIELD;
    private Predicate<String> instantFilter = t -> true;
    private long memoryBudget = Long.MAX_VALUE;
    private Optional<Path> spillDirectory = Optional.empty();

    private Builder(Storage storage) {
      this.storage = Objects.requireNonNull(storage, "storage");
    }

    /** The slice's log files (any order: they are read in log order). */
    public Builder logFiles(List<LogFile> files) {
      this.logFiles = List.copyOf(files);
      return this;
    }

    /** The table's active timeline; its commits timeline decides which blocks are committed. */
    public Builder timeline(Timeline t) {
      this.timeline = Objects.requireNonNull(t, "timeline");
      return this;
    }

    /** The query instant: data and delete blocks after it are skipped. */
    public Builder latestInstant(String instant) {
      this.latestInstant = Objects.requireNonNull(instant, "latestInstant");
      return this;
    }

    /** The schema records are resolved to; it must have the record key field. */
    public Builder readerSchema(Schema schema) {
      this.readerSchema = Objects.requireNonNull(schema, "readerSchema");
      return this;
    }

    /** The precombine (ordering) field, if the table has one. */
    public Builder precombineField(Optional<String> field) {
      this.precombineField = Objects.requireNonNull(field, "precombineField");
      return this;
    }

    /** The merge rules. */
    public Builder merger(RecordMerger m) {
      this.merger = Objects.requireNonNull(m, "merger");
      return this;
    }

    /** The record key field (default the meta field {@value #RECORD_KEY_FIELD}). */
    public Builder recordKeyField(String field) {
      this.recordKeyField = Objects.requireNonNull(field, "recordKeyField");
      return this;
    }

    /** The partition path field (default the meta field {@value #PARTITION_PATH_FIELD}). */
    public Builder partitionPathField(String field) {
      this.partitionPathField = Objects.requireNonNull(field, "partitionPathField");
      return this;
    }

    /** Keeps only data and delete blocks whose instant passes (incremental queries' instant range). */
    public Builder instantFilter(Predicate<String> filter) {
      this.instantFilter = Objects.requireNonNull(filter, "instantFilter");
      return this;
    }

    /**
     * Keeps the merged records within an estimated {@code bytes} of heap and spills the rest to a file in
     * {@code directory} (local disk, deleted when the result is closed). Without this the records stay in memory.
     */
    public Builder spillBeyond(long bytes, Path directory) {
      if (bytes < 0) {
        throw Errors.internal("a negative memory budget for merged log records: " + bytes, null);
      }
      this.memoryBudget = bytes;
      this.spillDirectory = Optional.of(Objects.requireNonNull(directory, "directory"));
      return this;
    }

    /** The scanner; checks the options. */
    public LogScanner build() {
      if (latestInstant == null || readerSchema == null || merger == null) {
        throw Errors.internal("a log scan needs the query instant, a reader schema and a merger", null);
      }
      if (readerSchema.getField(recordKeyField) == null) {
        throw Errors.badRequest("Merging log records", "the reader schema has no record key field '" + recordKeyField + "'",
            "Read with a schema that includes the Hudi meta fields.");
      }
      return new LogScanner(this);
    }
  }
}
