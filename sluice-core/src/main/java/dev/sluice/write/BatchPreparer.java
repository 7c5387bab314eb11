package dev.sluice.write;

import dev.sluice.basefile.MetaFields;
import dev.sluice.error.Errors;
import dev.sluice.error.SluiceException;
import dev.sluice.key.FieldPath;
import dev.sluice.key.KeyGenerator;
import dev.sluice.merge.Ordering;
import dev.sluice.merge.RecordMerger;
import dev.sluice.util.Positioned;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * First step of every write: validates each incoming record against the table schema, computes its key,
 * partition path and ordering value, and combines duplicates of a key (the larger ordering value wins, a tie
 * goes to the later record). Everything is checked before any file is written.
 */
final class BatchPreparer {
  private final Schema userSchema;
  private final List<String> keyFields;
  private final List<String> partitionFields;
  private final boolean hiveStyle;
  private final boolean urlEncode;
  private final Optional<String> precombineField;
  private final RecordMerger merger;
  private final boolean globalKeys;

  BatchPreparer(WriteSetup setup) {
    this.userSchema = setup.userSchema();
    this.keyFields = setup.tableConfig().recordKeyFields();
    this.partitionFields = setup.tableConfig().partitionFields();
    this.hiveStyle = setup.tableConfig().hiveStylePartitioning();
    this.urlEncode = setup.tableConfig().urlEncodePartitioning();
    this.precombineField = setup.tableConfig().precombineField();
    this.merger = setup.merger();
    this.globalKeys = setup.globalIndex();
  }

  /**
   * Prepares a batch. For {@code DELETE} records may be full records or rows holding only the key and
   * partition fields.
   */
  List<WriteRecord> prepare(Iterator<GenericRecord> input, WriteOperation op, boolean combine) {
    try (PreparedBatch batch = prepare(input, op, combine, PreparedBatch.Budget.UNBOUNDED)) {
      return batch.records();
    }
  }

  /**
   * Prepares a batch within {@code budget}: the records stay in memory while their estimated heap stays within it,
   * and past it go to an external sort on local disk (see {@link PreparedBatch}). The caller closes the batch.
   */
  PreparedBatch prepare(Iterator<GenericRecord> input, WriteOperation op, boolean combine, PreparedBatch.Budget budget) {
    PreparedBatch batch = new PreparedBatch(combine, globalKeys, merger, budget,
        () -> new WriteRecordSerializer(userSchema, precombineField));
    try {
      fill(batch, input, op);
      return batch;
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
  }

  private void fill(PreparedBatch batch, Iterator<GenericRecord> input, WriteOperation op) {
    Schema lastSchema = null;
    KeyGenerator keys = null;
    FieldPath ordering = null;
    FieldPath deleteFlag = null;
    long n = 0;
    while (input.hasNext()) {
      GenericRecord raw = input.next();
      n++;
      if (raw == null) {
        throw Errors.badInput(where(input, n), null, "the record is null", "a record of the table schema");
      }
      if (raw.getSchema() != lastSchema) {
        lastSchema = raw.getSchema();
        boolean full = op != WriteOperation.DELETE || lastSchema.equals(userSchema);
        if (full && !lastSchema.equals(userSchema)) {
          throw schemaMismatch(where(input, n), lastSchema);
        }
        keys = KeyGenerator.of(lastSchema, keyFields, partitionFields, hiveStyle, urlEncode);
        ordering = full && precombineField.isPresent() ? FieldPath.resolve(lastSchema, precombineField.get(), "precombine") : null;
        deleteFlag = full && lastSchema.getField(MetaFields.IS_DELETED) != null
            ? FieldPath.resolve(lastSchema, MetaFields.IS_DELETED, "delete marker") : null;
      }
      if (op != WriteOperation.DELETE) {
        validate(raw, where(input, n));
      }
      batch.add(toWriteRecord(raw, op, keys, ordering, deleteFlag, where(input, n)));
    }
  }

  /** Where record {@code n} came from: the file and line if the input knows them, else its number. */
  private static String where(Iterator<GenericRecord> input, long n) {
    if (input instanceof Positioned p && p.position().isPresent()) {
      return p.position().get() + " (record " + n + ")";
    }
    return "record " + n;
  }

  private WriteRecord toWriteRecord(GenericRecord raw, WriteOperation op, KeyGenerator keys, FieldPath ordering,
      FieldPath deleteFlag, String where) {
    String key;
    String partition;
    try {
      key = keys.recordKey(raw);
      partition = keys.partitionPath(raw);
    } catch (SluiceException e) {
      // the key generator names the field; the place is ours
      throw Errors.badInput(where, e.getMessage().replaceFirst("^Bad input at ", ""), e);
    }
    if (op == WriteOperation.DELETE) {
      return new WriteRecord(key, partition, null, Ordering.NATURAL, WriteRecord.DeleteKind.HARD);
    }
    @SuppressWarnings("rawtypes")
    Comparable ord = Ordering.NATURAL;
    if (ordering != null) {
      ord = Ordering.normalize(ordering.get(raw));
      if (ord == null) {
        throw Errors.badInput(where + " (key " + key + ")", ordering.name(), "the precombine value is null",
            "a value to order versions of a key by");
      }
    }
    boolean softDelete = deleteFlag != null && Boolean.TRUE.equals(deleteFlag.get(raw));
    return new WriteRecord(key, partition, raw, ord, softDelete ? WriteRecord.DeleteKind.SOFT : WriteRecord.DeleteKind.NONE);
  }

  private void validate(GenericRecord raw, String where) {
    if (!GenericData.get().validate(userSchema, raw)) {
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
