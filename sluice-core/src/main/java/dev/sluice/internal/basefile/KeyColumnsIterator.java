package dev.sluice.internal.basefile;

import dev.sluice.api.ComputingIterator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Function;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;

/**
 * Reads top-level string columns straight from Parquet's column readers, without building records: the fast path
 * for record keys. Dictionary-encoded values are decoded to a String once per dictionary entry. Rows whose first
 * column is null are skipped; a null in another column reads as {@code ""}.
 *
 * @param <T> what one row becomes
 */
final class KeyColumnsIterator<T> extends ComputingIterator<T> {
  private final MessageType schema;
  private final ColumnDescriptor[] columns;
  private final String createdBy;
  private final Function<String[], T> rowFn;
  private final Function<Throwable, RuntimeException> errors;
  private final StringConverter[] converters;
  private final TopLevelConverters root;
  private final ColumnReader[] readers;
  private final RowGroups groups;
  private long leftInGroup;
  private boolean done;

  KeyColumnsIterator(ParquetFileReader reader, MessageType schema, String createdBy, Function<String[], T> rowFn,
      Function<Throwable, RuntimeException> errors) {
    this.groups = new RowGroups(reader, false);
    this.schema = schema;
    this.columns = schema.getColumns().toArray(new ColumnDescriptor[0]);
    this.createdBy = createdBy;
    this.rowFn = rowFn;
    this.errors = errors;
    this.converters = new StringConverter[columns.length];
    for (int i = 0; i < columns.length; i++) {
      converters[i] = new StringConverter();
    }
    this.root = new TopLevelConverters(converters);
    this.readers = new ColumnReader[columns.length];
    reader.setRequestedSchema(schema);
  }

  @Override
  protected T computeNext() {
    if (done) {
      return end();
    }
    try {
      while (true) {
        if (leftInGroup == 0 && !nextRowGroup()) {
          close();
          return end();
        }
        leftInGroup--;
        String[] row = new String[columns.length];
        for (int i = 0; i < columns.length; i++) {
          ColumnReader r = readers[i];
          if (r.getCurrentDefinitionLevel() == columns[i].getMaxDefinitionLevel()) {
            r.writeCurrentValueToConverter();
            row[i] = converters[i].value;
          } else {
            row[i] = i == 0 ? null : "";
          }
          r.consume();
        }
        T out = row[0] != null ? rowFn.apply(row) : null;
        if (out != null) {
          return out;
        }
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw errors.apply(e);
    }
  }

  private boolean nextRowGroup() throws IOException {
    Optional<PageReadStore> pages = groups.next();
    if (pages.isEmpty()) {
      return false;
    }
    leftInGroup = pages.get().getRowCount();
    ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages.get(), root, schema, createdBy);
    for (int i = 0; i < columns.length; i++) {
      converters[i].dictionary = null;
      readers[i] = store.getColumnReader(columns[i]);
    }
    return true;
  }


  @Override
  public void close() {
    if (done) {
      return;
    }
    done = true;
    groups.closeFile(errors);
  }

  static String utf8(Binary b) {
    ByteBuffer buf = b.toByteBuffer();
    if (buf.hasArray()) {
      return new String(buf.array(), buf.arrayOffset() + buf.position(), buf.remaining(), StandardCharsets.UTF_8);
    }
    return b.toStringUsingUTF8();
  }

  /** Holds the last value of one column. */
  private static final class StringConverter extends PrimitiveConverter {
    private Dictionary dictionary;
    private String[] decoded;
    private String value;

    @Override
    public boolean hasDictionarySupport() {
      return true;
    }

    @Override
    public void setDictionary(Dictionary dictionary) {
      this.dictionary = dictionary;
      this.decoded = new String[dictionary.getMaxId() + 1];
    }

    @Override
    public void addValueFromDictionary(int id) {
      String s = decoded[id];
      if (s == null) {
        s = utf8(dictionary.decodeToBinary(id));
        decoded[id] = s;
      }
      value = s;
    }

    @Override
    public void addBinary(Binary b) {
      value = utf8(b);
    }
  }
}
