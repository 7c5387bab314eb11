package dev.sluice.internal.basefile;

import dev.sluice.internal.error.Errors;
import dev.sluice.api.SluiceException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.util.Utf8;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * The fast path of a Copy-on-Write merge: walks a base file row by row on column readers ({@link CopyColumnReader}
 * where it decodes the chunk, Parquet's otherwise) and copies the rows the merge keeps straight into a
 * {@link BaseFileWriter}'s column writers, every value with its repetition and definition levels, without building
 * an Avro record ({@code _hoodie_file_name} is replaced by the new file's name). Values and levels are the ones
 * the row was written with, so the output is the file that shredding the same rows as records would give (the
 * writer's page and row group cuts are driven by the same row ends).
 *
 * <p>Only for a source file whose Parquet schema equals the target's, a target that writes rows directly (not
 * through parquet-avro's record consumer, which caches nulls across rows) and an ordering field (if any) that is a
 * top-level primitive column; {@link #open} is empty otherwise and the caller reads records instead.
 */
public final class RowCopier implements Closeable {
  private static final Class<?> BUFFER_BACKED = Binary.fromConstantByteBuffer(ByteBuffer.allocate(1)).getClass();
  private final BaseFileReader source;
  private final BaseFileWriter target;
  private final MessageType schema;
  private final ColumnDescriptor[] columns;
  private final PrimitiveTypeName[] types;
  private final int[] maxDef;
  private final boolean[] repeated;
  private final int keyColumn;
  private final int fileNameColumn;
  private final int orderingColumn;
  private final Schema.Type orderingType;
  private final Binary fileName;
  private final ColumnReader[] readers;
  private final long[] remaining;
  private final ColumnWriter[] writers;
  /** Columns whose chunks {@link CopyColumnReader} decodes; the others are read by Parquet's reader. */
  private final boolean[] ownReader;
  private final ParquetFileReader parquet;
  private long boundGeneration = -1;
  private final RowGroups groups;
  private long leftInGroup;
  private boolean rowOpen;
  private String key;
  private boolean done;

  private RowCopier(BaseFileReader source, BaseFileWriter target, int keyColumn, int fileNameColumn,
      int orderingColumn, Schema.Type orderingType, String fileName) {
    this.source = source;
    this.target = target;
    this.schema = target.parquetSchema();
    List<ColumnDescriptor> cols = schema.getColumns();
    int n = cols.size();
    this.columns = cols.toArray(new ColumnDescriptor[0]);
    this.types = new PrimitiveTypeName[n];
    this.maxDef = new int[n];
    this.repeated = new boolean[n];
    for (int i = 0; i < n; i++) {
      types[i] = columns[i].getPrimitiveType().getPrimitiveTypeName();
      maxDef[i] = columns[i].getMaxDefinitionLevel();
      repeated[i] = columns[i].getMaxRepetitionLevel() > 0;
    }
    this.keyColumn = keyColumn;
    this.fileNameColumn = fileNameColumn;
    this.orderingColumn = orderingColumn;
    this.orderingType = orderingType;
    this.fileName = Binary.fromString(fileName);
    this.readers = new ColumnReader[n];
    this.remaining = new long[n];
    this.writers = new ColumnWriter[n];
    this.parquet = source.openAll();
    this.groups = new RowGroups(parquet, false);
    parquet.setRequestedSchema(schema);
    this.ownReader = new boolean[n];
    for (int i = 0; i < n; i++) {
      ownReader[i] = CopyColumnReader.readsAll(columns[i], parquet.getRowGroups());
    }
  }

  /**
   * A copier of {@code source}'s rows into {@code target}, or empty when the fast path does not apply (see the
   * class comment). {@code orderingField} is the top-level field {@link #ordering()} reads.
   *
   * @param fileName the value of {@code _hoodie_file_name} in every copied row
   */
  public static Optional<RowCopier> open(BaseFileReader source, BaseFileWriter target, Optional<String> orderingField,
      String fileName) {
    MessageType schema = target.parquetSchema();
    if (target.directColumns() == null || !schema.equals(source.parquetSchema())) {
      return Optional.empty();
    }
    int key = topLevelColumn(schema, MetaFields.RECORD_KEY);
    int name = topLevelColumn(schema, MetaFields.FILE_NAME);
    if (key < 0 || name < 0 || types(schema, key) != PrimitiveTypeName.BINARY
        || types(schema, name) != PrimitiveTypeName.BINARY) {
      return Optional.empty();
    }
    int ordering = -1;
    Schema.Type orderingType = null;
    if (orderingField.isPresent()) {
      ordering = topLevelColumn(schema, orderingField.get());
      Schema.Field f = source.footer().schema().getField(orderingField.get());
      orderingType = f == null ? null : nonNull(f.schema()).getType();
      if (ordering < 0 || orderingType == null || !readable(types(schema, ordering), orderingType)) {
        return Optional.empty();
      }
    }
    return Optional.of(new RowCopier(source, target, key, name, ordering, orderingType, fileName));
  }

  private static PrimitiveTypeName types(MessageType schema, int column) {
    return schema.getColumns().get(column).getPrimitiveType().getPrimitiveTypeName();
  }

  /** The column index of a top-level, non-repeated primitive field, or -1. */
  private static int topLevelColumn(MessageType schema, String name) {
    if (!schema.containsField(name)) {
      return -1;
    }
    Type t = schema.getType(name);
    if (!t.isPrimitive() || t.isRepetition(Type.Repetition.REPEATED)) {
      return -1;
    }
    List<ColumnDescriptor> cols = schema.getColumns();
    for (int i = 0; i < cols.size(); i++) {
      String[] p = cols.get(i).getPath();
      if (p.length == 1 && p[0].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean readable(PrimitiveTypeName parquet, Schema.Type avro) {
    return switch (avro) {
      case INT -> parquet == PrimitiveTypeName.INT32;
      case LONG -> parquet == PrimitiveTypeName.INT64;
      case FLOAT -> parquet == PrimitiveTypeName.FLOAT;
      case DOUBLE -> parquet == PrimitiveTypeName.DOUBLE;
      case BOOLEAN -> parquet == PrimitiveTypeName.BOOLEAN;
      case STRING -> parquet == PrimitiveTypeName.BINARY;
      default -> false;
    };
  }

  private static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    Schema only = null;
    for (Schema b : s.getTypes()) {
      if (b.getType() != Schema.Type.NULL) {
        if (only != null) {
          return s;
        }
        only = b;
      }
    }
    return only == null ? s : only;
  }

  /**
   * Moves to the next stored row (a row not yet copied or dropped is dropped); false after the last.
   */
  public boolean next() {
    if (rowOpen) {
      drop();
    }
    if (done) {
      return false;
    }
    try {
      if (leftInGroup == 0 && !nextRowGroup()) {
        close();
        return false;
      }
      leftInGroup--;
      ColumnReader k = readers[keyColumn];
      if (k.getCurrentDefinitionLevel() != maxDef[keyColumn]) {
        throw Errors.badTable(source.path(), "has a row without " + MetaFields.RECORD_KEY,
            "Files written with hoodie.populate.meta.fields=false cannot be merged by key.");
      }
      key = KeyColumnsIterator.utf8(k.getBinary());
      rowOpen = true;
      return true;
    } catch (SluiceException e) {
      close();
      throw e;
    } catch (IOException | RuntimeException e) {
      close();
      throw BaseFileReader.readError(source.path(), e);
    }
  }

  /** The current row's record key. */
  public String key() {
    return key;
  }

  /**
   * The current row's ordering value as an Avro generic record holds it ({@code Utf8} for strings), null when
   * the row has none or the copier was opened without an ordering field.
   */
  public Object ordering() {
    if (orderingColumn < 0) {
      return null;
    }
    ColumnReader r = readers[orderingColumn];
    if (r.getCurrentDefinitionLevel() != maxDef[orderingColumn]) {
      return null;
    }
    return switch (orderingType) {
      case INT -> r.getInteger();
      case LONG -> r.getLong();
      case FLOAT -> r.getFloat();
      case DOUBLE -> r.getDouble();
      case BOOLEAN -> r.getBoolean();
      default -> new Utf8(r.getBinary().getBytes());
    };
  }

  /** Writes the current row into the target (with the new file name) and ends it there. */
  public void copy() {
    requireRow();
    rebindWriters();
    try {
      for (int c = 0; c < columns.length; c++) {
        if (c == fileNameColumn) {
          skipRow(c);
          writers[c].write(fileName, 0, maxDef[c]);
        } else {
          copyRow(c);
        }
      }
    } catch (RuntimeException e) {
      target.fail();
      close();
      throw BaseFileReader.readError(source.path(), e);
    }
    rowOpen = false;
    target.endCopiedRow(key);
  }

  /** Leaves the current row out of the target. */
  public void drop() {
    requireRow();
    try {
      for (int c = 0; c < columns.length; c++) {
        skipRow(c);
      }
    } catch (RuntimeException e) {
      close();
      throw BaseFileReader.readError(source.path(), e);
    }
    rowOpen = false;
  }

  private void requireRow() {
    if (!rowOpen) {
      throw Errors.internal("row copy of " + source.path() + " without a current row", null);
    }
  }

  private void rebindWriters() {
    long generation = target.rowGroupsStarted();
    if (generation != boundGeneration) {
      ColumnWriteStore store = target.directColumns();
      for (int c = 0; c < columns.length; c++) {
        writers[c] = store.getColumnWriter(columns[c]);
      }
      boundGeneration = generation;
    }
  }

  private void copyRow(int c) {
    ColumnReader r = readers[c];
    ColumnWriter w = writers[c];
    int max = maxDef[c];
    do {
      int rl = r.getCurrentRepetitionLevel();
      int dl = r.getCurrentDefinitionLevel();
      if (dl == max) {
        switch (types[c]) {
          case INT32 -> w.write(r.getInteger(), rl, dl);
          case INT64 -> w.write(r.getLong(), rl, dl);
          case FLOAT -> w.write(r.getFloat(), rl, dl);
          case DOUBLE -> w.write(r.getDouble(), rl, dl);
          case BOOLEAN -> w.write(r.getBoolean(), rl, dl);
          default -> w.write(onHeap(r.getBinary()), rl, dl);
        }
      } else {
        w.writeNull(rl, dl);
      }
      r.consume();
      remaining[c]--;
    } while (repeated[c] && remaining[c] > 0 && r.getCurrentRepetitionLevel() > 0);
  }

  /**
   * The same bytes as a byte-array-backed value. Dictionary pages give values backed by a {@code ByteBuffer},
   * whose every hash, comparison and equality test in the target's dictionary writer and statistics goes through
   * buffer accessors: a fifth of a compaction's samples before this. The bytes are not copied (the value stays as
   * constant as the reader made it).
   */
  static Binary onHeap(Binary b) {
    if (b.getClass() != BUFFER_BACKED) {
      return b;
    }
    ByteBuffer bb = b.toByteBuffer();
    return bb.hasArray() ? Binary.fromConstantByteArray(bb.array(), bb.arrayOffset() + bb.position(), bb.remaining())
        : b;
  }

  private void skipRow(int c) {
    ColumnReader r = readers[c];
    int max = maxDef[c];
    do {
      if (r.getCurrentDefinitionLevel() == max) {
        r.skip();
      }
      r.consume();
      remaining[c]--;
    } while (repeated[c] && remaining[c] > 0 && r.getCurrentRepetitionLevel() > 0);
  }

  private boolean nextRowGroup() throws IOException {
    Optional<PageReadStore> pages = groups.next();
    if (pages.isEmpty()) {
      return false;
    }
    leftInGroup = pages.get().getRowCount();
    ColumnReadStoreImpl store = null;
    for (int c = 0; c < columns.length; c++) {
      if (ownReader[c]) {
        readers[c] = CopyColumnReader.open(columns[c], pages.get().getPageReader(columns[c]));
      } else {
        if (store == null) {
          store = new ColumnReadStoreImpl(pages.get(), new Ignored(schema), schema, source.createdBy());
        }
        readers[c] = store.getColumnReader(columns[c]);
      }
      remaining[c] = readers[c].getTotalValueCount();
    }
    return true;
  }


  /** Releases the source stream; rows already copied stay in the target. */
  @Override
  public void close() {
    if (done) {
      return;
    }
    done = true;
    rowOpen = false;
    groups.close();
    try {
      parquet.close();
    } catch (IOException e) {
      throw Errors.storage("read", source.path(), e);
    }
  }

  /** Column readers need a converter tree; values are taken from the readers directly, never through it. */
  static final class Ignored extends GroupConverter {
    private final Converter[] children;

    Ignored(GroupType type) {
      children = new Converter[type.getFieldCount()];
      for (int i = 0; i < children.length; i++) {
        Type t = type.getType(i);
        children[i] = t.isPrimitive() ? new PrimitiveConverter() { } : new Ignored(t.asGroupType());
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return children[fieldIndex];
    }

    @Override
    public void start() {
      // values are read from the column readers
    }

    @Override
    public void end() {
      // values are read from the column readers
    }
  }
}
