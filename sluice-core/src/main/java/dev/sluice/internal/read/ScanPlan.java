package dev.sluice.internal.read;

import dev.sluice.api.Progress;
import dev.sluice.api.ProgressListener;
import dev.sluice.internal.schema.Projection;
import dev.sluice.internal.util.ProgressMeter;
import dev.sluice.internal.schema.SchemaEvolution;
import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.log.SkippedBlock;
import dev.sluice.internal.read.expr.BoundExpression;
import dev.sluice.storage.Storage;
import dev.sluice.api.CloseableIterator;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterPredicate;

/**
 * A planned scan: the file slices to read (after partition pruning) and how to turn their rows into output
 * rows (column projection, Parquet-statistics pushdown, exact filtering). Base-file scans (Copy-on-Write, and
 * read-optimized Merge-on-Read) read each slice's base file; a Merge-on-Read snapshot merges each slice's log
 * records into its base rows first, and filters only the merged rows (statistics are pushed down only into base
 * files of slices without log files, whose rows no log record can change). With a parallelism of 1 the slices
 * are read in plan order, one open at a time; with more, up to that many threads each read whole slices and the
 * rows still come in plan order (see {@link CloseableIterator#concat(List, int, int)}).
 */
public final class ScanPlan {
  private final Storage storage;
  private final List<FileSlice> slices;
  private final Schema outputSchema;
  private final Optional<BoundExpression> filter;
  private final Set<String> readColumns;
  private final long limit;
  private final Optional<LogMerge> logMerge;
  private final Schema mergeSchema;
  private final Optional<Supplier<CloseableIterator<GenericRecord>>> reader;
  private final int parallelism;

  /** Rows handed from a slice's reader thread to the consumer at a time (parallel scans). */
  private static final int BATCH_ROWS = 1024;

  ScanPlan(Storage storage, List<FileSlice> slices, Schema outputSchema, Optional<BoundExpression> filter,
      Set<String> readColumns, long limit, Optional<LogMerge> logMerge, Schema mergeSchema) {
    this(storage, slices, outputSchema, filter, readColumns, limit, logMerge, mergeSchema, 1);
  }

  /** A plan whose slices are read on up to {@code parallelism} threads. */
  ScanPlan(Storage storage, List<FileSlice> slices, Schema outputSchema, Optional<BoundExpression> filter,
      Set<String> readColumns, long limit, Optional<LogMerge> logMerge, Schema mergeSchema, int parallelism) {
    this.storage = storage;
    this.slices = List.copyOf(slices);
    this.outputSchema = outputSchema;
    this.filter = filter;
    this.readColumns = readColumns;
    this.limit = limit;
    this.logMerge = logMerge;
    this.mergeSchema = mergeSchema;
    this.reader = Optional.empty();
    this.parallelism = Math.max(1, parallelism);
  }

  /** A plan whose rows come from {@code reader} (which reads {@code slices}), cut at {@code limit}. */
  ScanPlan(Storage storage, List<FileSlice> slices, Schema outputSchema, long limit, Optional<LogMerge> logMerge,
      Supplier<CloseableIterator<GenericRecord>> reader) {
    this.storage = storage;
    this.slices = List.copyOf(slices);
    this.outputSchema = outputSchema;
    this.filter = Optional.empty();
    this.readColumns = Set.of();
    this.limit = limit;
    this.logMerge = logMerge;
    this.mergeSchema = outputSchema;
    this.reader = Optional.of(reader);
    this.parallelism = 1;
  }

  /**
   * This plan narrowed to the slice of file group {@code id} (no slice if the plan has none of it), read the same
   * way (projection, filter, log merge); a distributed reader's task reads one slice so. Plans that compare two
   * states (incremental with deleted keys) read all their slices together and cannot be narrowed.
   */
  public ScanPlan onlyFileGroup(FileGroupId id) {
    if (reader.isPresent()) {
      throw Errors.unsupported("Reading one file slice of an incremental query that returns deleted keys",
          "Read the whole query in one task, or without deleted keys.");
    }
    List<FileSlice> one = slices.stream().filter(s -> s.id().equals(id)).toList();
    return new ScanPlan(storage, one, outputSchema, filter, readColumns, limit, logMerge, mergeSchema, 1);
  }

  /** The base files the scan reads. */
  public List<BaseFile> files() {
    return slices.stream().flatMap(s -> s.baseFile().stream()).toList();
  }

  /**
   * The file slices the scan reads: for base-file scans each with its base file only, for a Merge-on-Read snapshot
   * with the log files merged into it.
   */
  public List<FileSlice> slices() {
    return slices;
  }

  /** True if the scan merges log files (a Merge-on-Read snapshot or incremental query). */
  public boolean mergesLogs() {
    return logMerge.isPresent();
  }

  /** The schema of output rows. */
  public Schema outputSchema() {
    return outputSchema;
  }

  /** Threads the slices are read on (1: in plan order, one open at a time). */
  public int parallelism() {
    return parallelism;
  }

  /**
   * Reads all planned slices lazily: one open at a time in plan order, or with a parallelism above 1 on that many
   * threads (rows in plan order either way). Close the iterator to release files and threads.
   */
  public CloseableIterator<GenericRecord> open() {
    return open(ScanPlan::logSkipped);
  }

  /**
   * As {@link #open()}, telling {@code onSkipped} of every corrupt log block a slice's log scan skips (from the
   * reading thread; with a parallelism above 1 from several at once).
   */
  public CloseableIterator<GenericRecord> open(Consumer<SkippedBlock> onSkipped) {
    return open(onSkipped, ProgressListener.NONE);
  }

  /**
   * As {@link #open(Consumer)}, reporting to {@code progress} each file slice read to its end
   * ({@link Progress.Step#SCAN}, of the plan's slices; an incremental query that compares two states reports no
   * slices, only its end). The step finishes when the rows run out or the iterator is closed.
   */
  public CloseableIterator<GenericRecord> open(Consumer<SkippedBlock> onSkipped, ProgressListener progress) {
    if (reader.isPresent()) {
      ProgressMeter meter = ProgressMeter.start(progress, Progress.Step.SCAN, -1, 1);
      CloseableIterator<GenericRecord> rows = reader.get().get();
      return counted(limit == Long.MAX_VALUE ? rows : new Limited(rows, limit), meter, false);
    }
    List<Supplier<CloseableIterator<GenericRecord>>> parts = new ArrayList<>();
    ProgressMeter meter = ProgressMeter.start(progress, Progress.Step.SCAN, slices.size(), 1);
    for (FileSlice s : slices) {
      if (merged(s) || s.baseFile().isPresent()) {
        // one lambda for both kinds of slice: the workers' call of Supplier.get then sees one class, where two made
        // the compiled worker loop trap and fall back to the interpreter at each slice of the other kind
        parts.add(() -> counted(readSlice(s, onSkipped), meter, true));
      } else {
        // a slice without files to read (a pending compaction's new slice): done as soon as it is reached
        meter.advance(1);
      }
    }
    CloseableIterator<GenericRecord> all = CloseableIterator.concat(parts, parallelism, BATCH_ROWS);
    return counted(limit == Long.MAX_VALUE ? all : new Limited(all, limit), meter, false);
  }

  /**
   * {@code rows} telling {@code meter} when they run out: a slice's rows count one done ({@code slice}), the scan's
   * rows count each row returned in the meter's records and finish the step (also when closed before their end).
   * Without a listener the rows as they are.
   */
  private static CloseableIterator<GenericRecord> counted(CloseableIterator<GenericRecord> rows, ProgressMeter meter,
      boolean slice) {
    if (!meter.on()) {
      return rows;
    }
    // the scan's rows (one consumer) count the rows returned, so a long slice moves the report too
    ProgressMeter.Tally returned = slice ? null : meter.tally();
    return new CloseableIterator<>() {
      private boolean ended;

      @Override
      public boolean hasNext() {
        boolean more = rows.hasNext();
        if (!more) {
          end();
        }
        return more;
      }

      @Override
      public GenericRecord next() {
        GenericRecord r = rows.next();
        if (returned != null) {
          returned.add();
        }
        return r;
      }

      @Override
      public void close() {
        try {
          rows.close();
        } finally {
          if (!slice) {
            end();
          }
        }
      }

      private void end() {
        if (!ended) {
          ended = true;
          if (slice) {
            meter.advance(1);
          } else {
            returned.flush();
            meter.finish();
          }
        }
      }
    };
  }

  /** Where skipped blocks go when the caller gave no listener: the platform log, as a warning (also the api's default). */
  public static void logSkipped(SkippedBlock b) {
    System.getLogger(ScanPlan.class.getName()).log(System.Logger.Level.WARNING, "skipped a corrupt log block at offset "
        + b.offset() + " (" + b.size() + " bytes) of " + b.path() + b.instant().map(i -> ", instant " + i
        + (b.committed() ? " (committed: its rows are not read)" : " (not committed)")).orElse(""));
  }

  /** Whether {@code slice} is read merged with its logs: it has some, and the plan merges. */
  private boolean merged(FileSlice slice) {
    return logMerge.isPresent() && !slice.logFiles().isEmpty();
  }

  /** A slice's rows: merged with its logs (see {@link #merged}), else its base file's. */
  private CloseableIterator<GenericRecord> readSlice(FileSlice slice, Consumer<SkippedBlock> onSkipped) {
    return merged(slice) ? readMerged(slice, onSkipped) : readFile(slice.baseFile().get());
  }

  private CloseableIterator<GenericRecord> readMerged(FileSlice slice, Consumer<SkippedBlock> onSkipped) {
    // with no filter column beyond the output, kept base rows come in the output schema (WideRow): no copy
    Optional<Schema> shown = readColumns.size() == outputSchema.getFields().size() ? Optional.of(outputSchema)
        : Optional.empty();
    CloseableIterator<GenericRecord> rows = new MergedSliceReader(storage, mergeSchema, logMerge.get(), onSkipped,
        shown).open(slice);
    CloseableIterator<GenericRecord> kept = filter.isPresent() ? rows.filter(filter.get()::test) : rows;
    return kept.map(new OutputRows(outputSchema)::apply);
  }

  private CloseableIterator<GenericRecord> readFile(BaseFile f) {
    BaseFileReader reader = BaseFileReader.open(storage, f.path(), f.size());
    Schema fileSchema = reader.footer().schema();
    Schema projection = Projection.of(fileSchema, readColumns::contains);
    // when the file holds every output column as the output schema has it (the usual case: no widened type, no column
    // added since the file was written) and the filter reads none beyond them, the file's rows are assembled in the
    // output schema itself: no second record per row to copy them into (a tenth of a full scan's CPU before)
    boolean direct = projection.getFields().size() == readColumns.size()
        && readColumns.size() == outputSchema.getFields().size()
        && OutputMapping.of(projection, outputSchema).identical();
    Schema read = direct ? outputSchema : projection;
    Optional<FilterPredicate> pushed = filter.flatMap(BoundExpression::toParquet);
    CloseableIterator<GenericRecord> rows = pushed.isPresent()
        ? reader.read(read, FilterCompat.get(pushed.get()))
        : reader.read(read);
    CloseableIterator<GenericRecord> kept = filter.isPresent() ? rows.filter(filter.get()::test) : rows;
    CloseableIterator<GenericRecord> out = direct ? kept : kept.map(new OutputRows(outputSchema)::apply);
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return out.hasNext();
      }

      @Override
      public GenericRecord next() {
        return out.next();
      }

      @Override
      public void close() {
        try {
          out.close();
        } finally {
          reader.close();
        }
      }
    };
  }

  /**
   * Turns one slice's rows into output rows. Each slice gets its own, so the mapping cache needs no locking when
   * slices are read on several threads.
   */
  private static final class OutputRows {
    private final Schema outputSchema;
    /** The two latest row-to-output mappings (base rows and log rows alternate in a snapshot read). */
    private OutputMapping recent = OutputMapping.NONE;
    private OutputMapping older = OutputMapping.NONE;

    OutputRows(Schema outputSchema) {
      this.outputSchema = outputSchema;
    }

    GenericRecord apply(GenericRecord row) {
      Schema rowSchema = row.getSchema();
      if (rowSchema == outputSchema) {
        // read in the output schema already (a base row of a merged slice)
        return row;
      }
      OutputMapping m = recent;
      if (m.rowSchema != rowSchema) {
        m = older;
        if (m.rowSchema != rowSchema) {
          m = OutputMapping.of(rowSchema, outputSchema);
        }
        older = recent;
        recent = m;
      }
      GenericData.Record out = new GenericData.Record(outputSchema);
      int[] from = m.positions;
      for (int i = 0; i < from.length; i++) {
        Object v = from[i] < 0 ? null : row.get(from[i]);
        // rows of files written before the schema widened a type are widened too
        out.put(i, m.promote[i] ? SchemaEvolution.promote(v, m.targets[i]) : v);
      }
      return out;
    }
  }

  /**
   * Where each output field comes from in rows of one schema, and whether it needs widening: worked out once per
   * row schema instance (the rows of a file, or of a slice's logs, share one) instead of a field lookup by name
   * and a type check for every value of every row (an eighth of a snapshot read's samples before).
   */
  private static final class OutputMapping {
    static final OutputMapping NONE = new OutputMapping(null, new int[0], new boolean[0], new Schema[0]);

    final Schema rowSchema;
    final int[] positions;
    final boolean[] promote;
    final Schema[] targets;

    private OutputMapping(Schema rowSchema, int[] positions, boolean[] promote, Schema[] targets) {
      this.rowSchema = rowSchema;
      this.positions = positions;
      this.promote = promote;
      this.targets = targets;
    }

    /** True if every output field comes from the row's field of the same schema (rows need no mapping but order). */
    boolean identical() {
      for (int i = 0; i < positions.length; i++) {
        if (positions[i] < 0 || promote[i]) {
          return false;
        }
      }
      return true;
    }

    static OutputMapping of(Schema rowSchema, Schema outputSchema) {
      List<Schema.Field> fields = outputSchema.getFields();
      int n = fields.size();
      int[] positions = new int[n];
      boolean[] promote = new boolean[n];
      Schema[] targets = new Schema[n];
      for (Schema.Field f : fields) {
        Schema.Field src = rowSchema.getField(f.name());
        positions[f.pos()] = src == null ? -1 : src.pos();
        targets[f.pos()] = f.schema();
        promote[f.pos()] = src != null && !src.schema().equals(f.schema());
      }
      return new OutputMapping(rowSchema, positions, promote, targets);
    }
  }

  /** Column names to read: output columns plus filter columns. */
  static Set<String> readColumns(Schema outputSchema, Optional<BoundExpression> filter, Set<String> filterColumns) {
    Set<String> cols = new LinkedHashSet<>();
    outputSchema.getFields().forEach(f -> cols.add(f.name()));
    if (filter.isPresent()) {
      for (String c : filterColumns) {
        cols.add(c.split("\\.")[0]);
      }
    }
    return cols;
  }

  /** True if {@code name} is one of Hudi's meta columns. */
  static boolean isMeta(String name) {
    return MetaFields.ALL.contains(name);
  }

  private static final class Limited implements CloseableIterator<GenericRecord> {
    private final CloseableIterator<GenericRecord> in;
    private long left;

    Limited(CloseableIterator<GenericRecord> in, long limit) {
      this.in = in;
      this.left = limit;
    }

    @Override
    public boolean hasNext() {
      return left > 0 && in.hasNext();
    }

    @Override
    public GenericRecord next() {
      left--;
      return in.next();
    }

    @Override
    public void close() {
      in.close();
    }
  }
}
