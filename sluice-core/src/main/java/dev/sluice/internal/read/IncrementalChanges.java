package dev.sluice.internal.read;

import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.read.expr.BoundExpression;
import dev.sluice.storage.Storage;
import dev.sluice.api.CloseableIterator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * An incremental query's rows with the deleted ones: partition by partition, the touched file groups as of the
 * range's end (every key they hold is remembered; rows written in the range and matching the filter are returned
 * with {@code _hoodie_is_deleted = false}), then the same groups (and groups the range replaced) as of the
 * range's start: a row whose key the end no longer holds is returned as it was then, with
 * {@code _hoodie_is_deleted = true}, if it matches the filter. The keys of one partition's touched groups are held
 * in memory while it is read.
 */
final class IncrementalChanges {
  private final Storage storage;
  private final IncrementalRange range;
  private final Schema output;
  private final Schema internal;
  private final Schema mergeSchema;
  private final Optional<BoundExpression> filter;
  private final Optional<LogMerge> mergeAtEnd;
  private final Optional<LogMerge> mergeAtStart;
  private final Map<String, List<FileSlice>> endSlices;
  private final Map<String, List<FileSlice>> startSlices;

  /**
   * @param output the rows returned, ending with (or holding) the boolean {@code _hoodie_is_deleted} column
   * @param internal the table columns read: those of {@code output} and the filter, plus key, partition and commit
   *     time
   * @param mergeSchema the columns a Merge-on-Read merge reads ({@code internal} plus what merging needs)
   * @param endSlices per partition, the touched groups' slices as of the end
   * @param startSlices per partition, the touched and replaced groups' slices as of the start
   */
  IncrementalChanges(Storage storage, IncrementalRange range, Schema output, Schema internal, Schema mergeSchema,
      Optional<BoundExpression> filter, Optional<LogMerge> mergeAtEnd, Optional<LogMerge> mergeAtStart,
      Map<String, List<FileSlice>> endSlices, Map<String, List<FileSlice>> startSlices) {
    this.storage = storage;
    this.range = range;
    this.output = output;
    this.internal = internal;
    this.mergeSchema = mergeSchema;
    this.filter = filter;
    this.mergeAtEnd = mergeAtEnd;
    this.mergeAtStart = mergeAtStart;
    this.endSlices = endSlices;
    this.startSlices = startSlices;
  }

  /** {@code schema} with a boolean {@code _hoodie_is_deleted} column last, unless it already has one. */
  static Schema withDeletedColumn(Schema schema) {
    if (schema.getField(MetaFields.IS_DELETED) != null) {
      return schema;
    }
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : schema.getFields()) {
      fields.add(new Schema.Field(f, f.schema()));
    }
    fields.add(new Schema.Field(MetaFields.IS_DELETED, Schema.create(Schema.Type.BOOLEAN),
        "true for a record deleted in the range (shown as of the range's start)", false));
    return Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), false, fields);
  }

  /** The table columns to read: the output's and the filter's, plus record key, partition path and commit time. */
  static Set<String> internalColumns(Schema output, Optional<BoundExpression> filter) {
    Set<String> names = new LinkedHashSet<>();
    output.getFields().forEach(f -> names.add(f.name()));
    // the bound filter's columns are spelled as in the schema, whatever case the filter used
    filter.ifPresent(e -> e.columns().forEach(c -> names.add(c.split("\\.")[0])));
    names.add(MetaFields.RECORD_KEY);
    names.add(MetaFields.PARTITION_PATH);
    names.add(MetaFields.COMMIT_TIME);
    return names;
  }

  /** The rows, read lazily partition by partition. */
  CloseableIterator<GenericRecord> open() {
    List<Supplier<CloseableIterator<GenericRecord>>> parts = new ArrayList<>();
    for (String partition : endSlices.keySet()) {
      Set<String> keysAtEnd = new HashSet<>();
      parts.add(() -> atEnd(partition, keysAtEnd));
      parts.add(() -> deleted(partition, keysAtEnd));
    }
    return CloseableIterator.concat(parts);
  }

  private CloseableIterator<GenericRecord> atEnd(String partition, Set<String> keys) {
    return read(endSlices.get(partition), mergeAtEnd)
        .filter(r -> {
          keys.add(key(r));
          Object t = r.get(MetaFields.COMMIT_TIME);
          return t != null && range.contains(t.toString()) && matches(r);
        })
        .map(r -> toOutput(r, false));
  }

  private CloseableIterator<GenericRecord> deleted(String partition, Set<String> keysAtEnd) {
    List<FileSlice> slices = startSlices.getOrDefault(partition, List.of());
    CloseableIterator<GenericRecord> rows = read(slices, mergeAtStart).filter(r -> !keysAtEnd.contains(key(r))
        && matches(r)).map(r -> toOutput(r, true));
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        boolean more = rows.hasNext();
        if (!more) {
          // the partition is done: let its keys go
          keysAtEnd.clear();
        }
        return more;
      }

      @Override
      public GenericRecord next() {
        return rows.next();
      }

      @Override
      public void close() {
        keysAtEnd.clear();
        rows.close();
      }
    };
  }

  private CloseableIterator<GenericRecord> read(List<FileSlice> slices, Optional<LogMerge> merge) {
    ScanPlan plan = new ScanPlan(storage, slices, internal, Optional.empty(), fieldNames(internal), Long.MAX_VALUE,
        merge, mergeSchema);
    return plan.open();
  }

  private boolean matches(GenericRecord r) {
    return filter.isEmpty() || filter.get().test(r);
  }

  private static String key(GenericRecord r) {
    Object k = r.get(MetaFields.RECORD_KEY);
    return k == null ? "" : k.toString();
  }

  private GenericRecord toOutput(GenericRecord row, boolean deleted) {
    GenericData.Record out = new GenericData.Record(output);
    Schema rowSchema = row.getSchema();
    for (Schema.Field f : output.getFields()) {
      if (f.name().equals(MetaFields.IS_DELETED)) {
        out.put(f.pos(), deleted);
        continue;
      }
      Schema.Field src = rowSchema.getField(f.name());
      out.put(f.pos(), src == null ? null : row.get(src.pos()));
    }
    return out;
  }

  private static Set<String> fieldNames(Schema s) {
    Set<String> names = new LinkedHashSet<>();
    s.getFields().forEach(f -> names.add(f.name()));
    return names;
  }
}
