package dev.sluice.internal.write;

import dev.sluice.api.Positioned;
import dev.sluice.api.SluiceException;
import dev.sluice.api.WriteOperation;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.key.FieldPath;
import dev.sluice.internal.key.KeyGenerator;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.merge.Ordering;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.util.Parallel;
import dev.sluice.internal.util.ProgressMeter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * First step of every write: validates each incoming record against the table schema, computes its key,
 * partition path and ordering value, and combines duplicates of a key (the larger ordering value wins, a tie
 * goes to the later record). Everything is checked before any file is written.
 */
final class BatchPreparer {
  /** Records per chunk converted on a write thread. */
  private static final int CHUNK = 4096;
  private static final AtomicInteger POOL_ID = new AtomicInteger();

  private final Schema userSchema;
  private final KeyGenerator.KeySpec keySpec;
  private final Optional<String> precombineField;
  private final RecordMerger merger;
  private final boolean globalKeys;
  private final int threads;
  private final OutcomeCounts counts;
  /** The partition path of deletes without partition values (the default partition's), once one is seen. */
  private volatile String missingPartitionPath;

  BatchPreparer(WriteSetup setup) {
    this(setup, new OutcomeCounts());
  }

  /** A preparer that counts into {@code counts}. */
  BatchPreparer(WriteSetup setup, OutcomeCounts counts) {
    this.counts = counts;
    this.userSchema = setup.userSchema();
    TableConfig tc = setup.tableConfig();
    this.keySpec = new KeyGenerator.KeySpec(tc.recordKeyFields(), tc.partitionFields(), tc.hiveStylePartitioning(),
        tc.urlEncodePartitioning(), tc.namesSingleKeyField());
    this.precombineField = setup.tableConfig().precombineField();
    this.merger = setup.merger();
    this.globalKeys = setup.globalIndex();
    this.threads = setup.parallelism();
  }

  /**
   * Prepares a batch. For {@code DELETE} records may be full records or rows holding only the key and
   * partition fields.
   */
  List<WriteRecord> prepare(Iterator<GenericRecord> input, WriteOperation op, boolean combine) {
    try (PreparedBatch batch = prepare(input, op, combine, PreparedBatch.Budget.UNBOUNDED, ProgressMeter.OFF)) {
      return batch.records();
    }
  }

  /**
   * Each record of {@code input} validated and converted when the caller pulls it: nothing is read ahead, combined
   * or held, so memory does not grow with the input (a distributed write's task prepares its input partition this
   * way and leaves combining duplicates to the engine's shuffle). Errors name the record as {@link #prepare} does.
   */
  Iterator<WriteRecord> prepareEach(Iterator<GenericRecord> input, WriteOperation op) {
    return convertEach(input, null, op);
  }

  /**
   * The records of {@code input} checked and converted one by one as the caller pulls them, numbered from 1;
   * {@code first}, when not null, is record 1, already read and checked ({@link #fill} reads it to learn whether the
   * input is positioned before it chooses how to convert).
   */
  private Iterator<WriteRecord> convertEach(Iterator<GenericRecord> input, GenericRecord first, WriteOperation op) {
    Converter c = new Converter(op);
    return new Iterator<>() {
      private GenericRecord readAhead = first;
      private long n;

      @Override
      public boolean hasNext() {
        return readAhead != null || input.hasNext();
      }

      @Override
      public WriteRecord next() {
        long at = ++n;
        GenericRecord raw = readAhead != null ? readAhead : checked(input.next(), input, at);
        readAhead = null;
        return c.convert(raw, () -> where(input, at));
      }
    };
  }

  /**
   * Prepares a batch within {@code budget}: the records stay in memory while their estimated heap stays within it,
   * and past it go to an external sort on local disk (see {@link PreparedBatch}). The caller closes the batch. Each
   * record read and checked counts one on {@code read}.
   */
  PreparedBatch prepare(Iterator<GenericRecord> input, WriteOperation op, boolean combine, PreparedBatch.Budget budget,
      ProgressMeter read) {
    PreparedBatch batch = new PreparedBatch(combine, globalKeys, merger, budget,
        () -> new WriteRecordSerializer(userSchema, precombineField), counts);
    try {
      fill(batch, input, op, read);
      return batch;
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
  }

  private void fill(PreparedBatch batch, Iterator<GenericRecord> input, WriteOperation op, ProgressMeter read) {
    if (!input.hasNext()) {
      return;
    }
    GenericRecord first = checked(input.next(), input, 1);
    // inputs that know where each record came from (files) are converted as they are read, so an error names the
    // line; plain iterators are converted in chunks on the write threads, in order
    boolean positioned = input instanceof Positioned p && p.position().isPresent();
    if (threads > 1 && !positioned) {
      fillInChunks(batch, first, input, op, read);
      return;
    }
    Iterator<WriteRecord> each = convertEach(input, first, op);
    while (each.hasNext()) {
      batch.add(each.next());
      read.advance(1);
    }
  }

  private static GenericRecord checked(GenericRecord raw, Iterator<GenericRecord> input, long n) {
    if (raw == null) {
      throw Errors.badInput(where(input, n), null, "the record is null", "a record of the table schema");
    }
    return raw;
  }

  /**
   * Reads the input on the caller's thread, {@value #CHUNK} records at a time, validates and converts each chunk on
   * one of {@link #threads} threads, and adds the converted chunks to the batch in input order (so duplicates combine
   * as they would one by one, and the first bad record in input order is the one reported). At most twice as many
   * chunks as threads are read ahead.
   */
  private void fillInChunks(PreparedBatch batch, GenericRecord first, Iterator<GenericRecord> input,
      WriteOperation op, ProgressMeter read) {
    ExecutorService pool = Parallel.daemonPool(threads, "sluice-prepare-" + POOL_ID.incrementAndGet());
    ArrayDeque<Future<List<WriteRecord>>> pending = new ArrayDeque<>();
    try {
      long n = 1;
      List<GenericRecord> chunk = new ArrayList<>(CHUNK);
      chunk.add(first);
      while (true) {
        while (chunk.size() < CHUNK && input.hasNext()) {
          chunk.add(checked(input.next(), input, ++n));
        }
        if (chunk.isEmpty()) {
          break;
        }
        List<GenericRecord> records = chunk;
        long firstNumber = n - records.size() + 1;
        pending.add(pool.submit(() -> convertChunk(records, firstNumber, op)));
        chunk = new ArrayList<>(CHUNK);
        if (pending.size() >= 2 * threads) {
          addAll(batch, pending.poll(), read);
        }
      }
      while (!pending.isEmpty()) {
        addAll(batch, pending.poll(), read);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private List<WriteRecord> convertChunk(List<GenericRecord> records, long firstNumber, WriteOperation op) {
    Converter c = new Converter(op);
    List<WriteRecord> out = new ArrayList<>(records.size());
    for (int i = 0; i < records.size(); i++) {
      long at = firstNumber + i;
      out.add(c.convert(records.get(i), () -> "record " + at));
    }
    return out;
  }

  private static void addAll(PreparedBatch batch, Future<List<WriteRecord>> converted, ProgressMeter read) {
    try {
      List<WriteRecord> records = converted.get();
      for (WriteRecord r : records) {
        batch.add(r);
      }
      read.advance(records.size());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Errors.internal("interrupted while preparing a write", e);
    } catch (ExecutionException e) {
      throw Parallel.failure(e, "preparing a write failed");
    }
  }

  /** The partition path deletes without partition values went to (the default partition), if there were any. */
  Optional<String> missingPartitionPath() {
    return Optional.ofNullable(missingPartitionPath);
  }

  /** The table's partition path fields. */
  List<String> partitionFields() {
    return keySpec.partitionFields();
  }

  /** Where record {@code n} came from: the file and line if the input knows them, else its number. */
  private static String where(Iterator<GenericRecord> input, long n) {
    if (input instanceof Positioned p && p.position().isPresent()) {
      return p.position().get() + " (record " + n + ")";
    }
    return "record " + n;
  }

  /** Validates and converts records, resolving key, ordering and delete fields once per record schema. */
  private final class Converter {
    private final WriteOperation op;
    private Schema lastSchema;
    private KeyGenerator keys;
    private FieldPath ordering;
    private FieldPath deleteFlag;

    Converter(WriteOperation op) {
      this.op = op;
    }

    /** {@code where} names the record in errors; it is only called for one. */
    WriteRecord convert(GenericRecord raw, Supplier<String> where) {
      if (raw.getSchema() != lastSchema) {
        Schema schema = raw.getSchema();
        boolean full = op != WriteOperation.DELETE || schema.equals(userSchema);
        if (full && !schema.equals(userSchema)) {
          throw schemaMismatch(where.get(), schema);
        }
        keys = KeyGenerator.of(schema, keySpec);
        ordering = full && precombineField.isPresent() ? FieldPath.resolve(schema, precombineField.get(), "precombine")
            : null;
        deleteFlag = full && schema.getField(MetaFields.IS_DELETED) != null
            ? FieldPath.resolve(schema, MetaFields.IS_DELETED, "delete marker") : null;
        lastSchema = schema;
      }
      if (op != WriteOperation.DELETE) {
        validate(raw, where);
      }
      return toWriteRecord(raw, op, keys, ordering, deleteFlag, where);
    }
  }

  private WriteRecord toWriteRecord(GenericRecord raw, WriteOperation op, KeyGenerator keys, FieldPath ordering,
      FieldPath deleteFlag, Supplier<String> where) {
    String key;
    String partition;
    try {
      key = keys.recordKey(raw);
      partition = keys.partitionPath(raw);
    } catch (SluiceException e) {
      // the key generator names the field; the place is ours
      throw Errors.badInput(where.get(), e.getMessage().replaceFirst("^Bad input at ", ""), e);
    }
    if (op == WriteOperation.DELETE) {
      // a key-only delete without its partition on a non-global index is looked up in the default partition alone
      if (!globalKeys && keys.partitionValuesMissing(raw)) {
        counts.deletesWithoutPartition.increment();
        missingPartitionPath = partition;
      }
      return new WriteRecord(key, partition, null, Ordering.NATURAL, WriteRecord.DeleteKind.HARD);
    }
    @SuppressWarnings("rawtypes")
    Comparable ord = Ordering.NATURAL;
    if (ordering != null) {
      ord = Ordering.normalize(ordering.get(raw));
      if (ord == null) {
        throw Errors.badInput(where.get() + " (key " + key + ")", ordering.name(), "the precombine value is null",
            "a value to order versions of a key by");
      }
    }
    boolean softDelete = deleteFlag != null && Boolean.TRUE.equals(deleteFlag.get(raw));
    return new WriteRecord(key, partition, raw, ord, softDelete ? WriteRecord.DeleteKind.SOFT : WriteRecord.DeleteKind.NONE);
  }

  private void validate(GenericRecord raw, Supplier<String> place) {
    if (!GenericData.get().validate(userSchema, raw)) {
      String where = place.get();
      for (Schema.Field f : userSchema.getFields()) {
        if (!GenericData.get().validate(f.schema(), raw.get(f.pos()))) {
          Object v = raw.get(f.pos());
          throw Errors.badInput(where, f.name(), v == null ? "the value is null" : "value " + v + " does not match",
              "a value of type " + f.schema());
        }
      }
      throw Errors.badInput(where, null, "the record does not match the table schema", userSchema.toString());
    }
  }

  private SluiceException schemaMismatch(String where, Schema got) {
    return Errors.badInput(where, null, "the record's schema differs from the table schema: " + got,
        "records built with the table schema (Table.schema()) " + userSchema);
  }
}
