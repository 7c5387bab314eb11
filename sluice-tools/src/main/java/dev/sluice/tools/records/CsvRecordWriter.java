package dev.sluice.tools.records;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.sluice.api.SluiceException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.Writer;
import java.util.List;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Writes records as CSV in the form {@link RecordSources} reads ({@link InputFormat#CSV}): a header of field
 * names, then one line per record; null is an empty cell, the empty string is {@code ""}, cells with commas,
 * quotes or line breaks are quoted (RFC 4180), scalars use the same text as JSON, and records, arrays and maps
 * are JSON text.
 */
public final class CsvRecordWriter implements RecordFormatter {
  private static final int SINK_BYTES = 1 << 16;

  private final Writer out;
  private final Utf8Sink bytes;
  private final Schema schema;
  private final CellWriter[] cells;
  private final CsvCellBytes[] byteCells;
  /** Per column, its cells' kind ({@link CsvCellBytes#kindOf}). */
  private final byte[] byteKinds;
  private boolean headerDone;
  private Schema checked;

  /**
   * A writer of records of {@code schema} to {@code out} (UTF-8). Nothing is written until used. The cells go
   * straight into a buffer of UTF-8 bytes ({@link CsvCellBytes}), the same text the writer of characters makes.
   */
  public CsvRecordWriter(OutputStream out, Schema schema) {
    this.out = null;
    this.bytes = new Utf8Sink(out, SINK_BYTES);
    this.schema = schema;
    List<Schema.Field> fields = schema.getFields();
    this.cells = null;
    this.byteCells = new CsvCellBytes[fields.size()];
    this.byteKinds = new byte[fields.size()];
    for (Schema.Field f : fields) {
      byteCells[f.pos()] = CsvCellBytes.compile(f.schema());
      byteKinds[f.pos()] = CsvCellBytes.kindOf(f.schema());
    }
  }

  /** A writer of records of {@code schema} to {@code out}. */
  public CsvRecordWriter(Writer out, Schema schema) {
    this.out = out;
    this.bytes = null;
    this.byteCells = null;
    this.byteKinds = null;
    this.schema = schema;
    List<Schema.Field> fields = schema.getFields();
    this.cells = new CellWriter[fields.size()];
    for (Schema.Field f : fields) {
      cells[f.pos()] = cellWriter(f.schema());
    }
  }

  @Override
  public void write(GenericRecord record) throws IOException {
    if (record.getSchema() != checked) {
      JsonRecordWriter.checkSchema(schema, record);
      checked = record.getSchema();
    }
    header();
    if (bytes != null) {
      writeBytes(record);
      return;
    }
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) {
        out.write(',');
      }
      Object v = record.get(i);
      if (v != null) {
        String text;
        try {
          text = cells[i].text(v);
        } catch (ClassCastException | NullPointerException | AvroRuntimeException e) {
          throw SluiceException.internal("field " + schema.getFields().get(i).name() + " does not match its schema: " + e, e);
        }
        writeCell(out, text);
      }
    }
    out.write('\n');
  }

  private void writeBytes(GenericRecord record) throws IOException {
    // the records rows are: a class call, where the interface's is an interface dispatch per cell in C1's code
    GenericData.Record plain = record instanceof GenericData.Record r ? r : null;
    for (int i = 0; i < byteCells.length; i++) {
      if (i > 0) {
        bytes.write(',');
      }
      Object v = plain != null ? plain.get(i) : record.get(i);
      if (v != null) {
        try {
          CsvCellBytes.write(byteKinds[i], byteCells[i], bytes, v);
        } catch (ClassCastException | NullPointerException | AvroRuntimeException e) {
          throw SluiceException.internal("field " + schema.getFields().get(i).name() + " does not match its schema: " + e, e);
        }
      }
    }
    bytes.write('\n');
  }

  @Override
  public void close() throws IOException {
    header();
    if (bytes != null) {
      bytes.flush();
    } else {
      out.flush();
    }
  }

  private void header() throws IOException {
    if (headerDone) {
      return;
    }
    headerDone = true;
    if (bytes != null) {
      for (Schema.Field f : schema.getFields()) {
        if (f.pos() > 0) {
          bytes.write(',');
        }
        CsvCellBytes.cell(bytes, f.name());
      }
      bytes.write('\n');
      return;
    }
    for (Schema.Field f : schema.getFields()) {
      if (f.pos() > 0) {
        out.write(',');
      }
      writeCell(out, f.name());
    }
    out.write('\n');
  }

  /** Writes a cell's text, quoted when it is empty or holds a comma, quote or line break. */
  static void writeCell(Writer out, String text) throws IOException {
    if (!needsQuotes(text)) {
      out.write(text);
      return;
    }
    out.write('"');
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '"') {
        out.write(text, start, i + 1 - start);
        out.write('"');
        start = i + 1;
      }
    }
    out.write(text, start, text.length() - start);
    out.write('"');
  }

  static boolean needsQuotes(String text) {
    if (text.isEmpty()) {
      return true;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == ',' || c == '"' || c == '\n' || c == '\r') {
        return true;
      }
    }
    // A leading byte-order mark would be stripped from the first header cell on reading.
    return text.charAt(0) == '\uFEFF';
  }

  /** The text of one non-null cell value. */
  @FunctionalInterface
  interface CellWriter {
    String text(Object value);
  }

  static CellWriter cellWriter(Schema schema) {
    switch (schema.getType()) {
      case RECORD:
      case ARRAY:
      case MAP:
        return new JsonText(JsonValueWriter.compile(schema))::of;
      case UNION:
        Schema single = Schemas.singleNonNull(schema);
        if (single != null) {
          return cellWriter(single);
        }
        CellWriter[] branches = new CellWriter[schema.getTypes().size()];
        for (int i = 0; i < branches.length; i++) {
          Schema b = schema.getTypes().get(i);
          branches[i] = b.getType() == Schema.Type.NULL ? v -> "" : cellWriter(b);
        }
        return v -> branches[GenericData.get().resolveUnion(schema, v)].text(v);
      case NULL:
        return v -> "";
      default:
        TextFormat.ValueText text = TextFormat.compile(schema);
        return text::format;
    }
  }

  /**
   * The JSON text of nested cells (records, arrays, maps) through one generator over one buffer, reused from cell to
   * cell: a new generator per cell (with its buffers) was most of the CSV output's cost on rows with nested fields.
   * Single-threaded, as the writers that hold it are.
   */
  private static final class JsonText {
    private final JsonValueWriter json;
    private final StringWriter buffer = new StringWriter();
    private JsonGenerator generator;

    JsonText(JsonValueWriter json) {
      this.json = json;
    }

    String of(Object value) {
      try {
        if (generator == null) {
          generator = JsonRecordWriter.FACTORY.createGenerator(buffer);
        }
        json.write(generator, value);
        generator.flush();
        return buffer.toString();
      } catch (IOException e) {
        throw SluiceException.internal("writing JSON to memory failed", e);
      } catch (RuntimeException e) {
        // a value that did not match its schema left the generator inside it: the next cell starts afresh
        generator = null;
        throw e;
      } finally {
        buffer.getBuffer().setLength(0);
      }
    }
  }
}
