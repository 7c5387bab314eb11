package dev.sluice.read;

import dev.sluice.basefile.BaseFileReader;
import dev.sluice.basefile.MetaFields;
import dev.sluice.fsview.BaseFile;
import dev.sluice.read.expr.BoundExpression;
import dev.sluice.storage.Storage;
import dev.sluice.util.CloseableIterator;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterPredicate;

/**
 * A planned scan: the base files to read (after partition pruning) and how to turn their rows into output
 * rows (column projection, Parquet-statistics pushdown, exact filtering).
 */
public final class ScanPlan {
  private final Storage storage;
  private final List<BaseFile> files;
  private final Schema outputSchema;
  private final Optional<BoundExpression> filter;
  private final Set<String> readColumns;
  private final long limit;

  ScanPlan(Storage storage, List<BaseFile> files, Schema outputSchema, Optional<BoundExpression> filter,
      Set<String> readColumns, long limit) {
    this.storage = storage;
    this.files = List.copyOf(files);
    this.outputSchema = outputSchema;
    this.filter = filter;
    this.readColumns = readColumns;
    this.limit = limit;
  }

  /** The base files the scan reads. */
  public List<BaseFile> files() {
    return files;
  }

  /** The schema of output rows. */
  public Schema outputSchema() {
    return outputSchema;
  }

  /** Reads all planned files lazily, one open at a time. */
  public CloseableIterator<GenericRecord> open() {
    List<Supplier<CloseableIterator<GenericRecord>>> parts = new ArrayList<>();
    for (BaseFile f : files) {
      parts.add(() -> readFile(f));
    }
    CloseableIterator<GenericRecord> all = CloseableIterator.concat(parts);
    return limit == Long.MAX_VALUE ? all : new Limited(all, limit);
  }

  private CloseableIterator<GenericRecord> readFile(BaseFile f) {
    BaseFileReader reader = BaseFileReader.open(storage, f.path(), f.size());
    Schema fileSchema = reader.footer().schema();
    List<Schema.Field> projected = new ArrayList<>();
    for (Schema.Field field : fileSchema.getFields()) {
      if (readColumns.contains(field.name())) {
        projected.add(new Schema.Field(field, field.schema()));
      }
    }
    Schema projection = Schema.createRecord(fileSchema.getName(), fileSchema.getDoc(), fileSchema.getNamespace(), false,
        projected);
    Optional<FilterPredicate> pushed = filter.flatMap(BoundExpression::toParquet);
    CloseableIterator<GenericRecord> rows = pushed.isPresent()
        ? reader.read(projection, FilterCompat.get(pushed.get()))
        : reader.read(projection);
    CloseableIterator<GenericRecord> kept = filter.isPresent() ? rows.filter(filter.get()::test) : rows;
    CloseableIterator<GenericRecord> out = kept.map(this::toOutput);
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

  private GenericRecord toOutput(GenericRecord row) {
    GenericData.Record out = new GenericData.Record(outputSchema);
    Schema rowSchema = row.getSchema();
    for (Schema.Field f : outputSchema.getFields()) {
      Schema.Field src = rowSchema.getField(f.name());
      out.put(f.pos(), src == null ? null : row.get(src.pos()));
    }
    return out;
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
