package dev.sluice.tools.records;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.util.Utf8;

/**
 * Writes one non-null CSV cell of a fixed schema straight into a {@link Utf8Sink}, quoted as
 * {@link CsvRecordWriter#writeCell} quotes it: numbers as digits, booleans as bytes compiled once, Avro's ASCII
 * {@link Utf8} strings checked and copied as they are stored, records, arrays and maps as their JSON
 * ({@link JsonBytes}) formatted into a scratch buffer and quoted from there. The other types (and strings with
 * characters beyond ASCII) go through their text ({@link TextFormat}). Single-threaded, as its writer is.
 */
abstract class CsvCellBytes {
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};

  abstract void write(Utf8Sink out, Object value) throws IOException;

  static CsvCellBytes compile(Schema schema) {
    switch (schema.getType()) {
      case RECORD:
      case ARRAY:
      case MAP:
        return nested(JsonBytes.compile(schema));
      case UNION: {
        Schema single = Schemas.singleNonNull(schema);
        if (single != null) {
          return compile(single);
        }
        CsvCellBytes[] branches = new CsvCellBytes[schema.getTypes().size()];
        for (int i = 0; i < branches.length; i++) {
          Schema b = schema.getTypes().get(i);
          branches[i] = b.getType() == Schema.Type.NULL ? text(v -> "") : compile(b);
        }
        return new CsvCellBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            branches[GenericData.get().resolveUnion(schema, value)].write(out, value);
          }
        };
      }
      case NULL:
        return text(v -> "");
      default:
        return scalar(schema);
    }
  }

  private static CsvCellBytes scalar(Schema schema) {
    TextFormat.ValueText text = TextFormat.compile(schema);
    if (schema.getLogicalType() != null || Schemas.logicalName(schema) != null) {
      return text(text);
    }
    switch (schema.getType()) {
      case INT:
      case LONG:
        return new CsvCellBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            integral(out, value);
          }
        };
      case FLOAT:
      case DOUBLE:
        // digits, a point, an exponent, NaN or Infinity: never a character that needs quotes
        return new CsvCellBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            floating(out, value);
          }
        };
      case BOOLEAN:
        return new CsvCellBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            out.write((Boolean) value ? TRUE : FALSE);
          }
        };
      case STRING:
        return new CsvCellBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            string(out, value);
          }
        };
      default:
        return text(text);
    }
  }

  /** {@link #kindOf}: a cell written by its compiled {@link CsvCellBytes}. */
  static final byte OTHER = 0;
  private static final byte INTEGRAL = 1;
  private static final byte FLOATING = 2;
  private static final byte BOOLEAN = 3;
  private static final byte STRING = 4;

  /**
   * The plain type of a column's non-null cells that {@link #write(byte, CsvCellBytes, Utf8Sink, Object)} writes
   * itself, else {@link #OTHER}. A row's writer switches on it instead of calling each column's compiled writer:
   * that call is megamorphic (a type per column), so a cold JVM's C1 code made it a vtable dispatch per cell.
   */
  static byte kindOf(Schema schema) {
    Schema s = schema.getType() == Schema.Type.UNION ? Schemas.singleNonNull(schema) : schema;
    if (s == null || s.getLogicalType() != null || Schemas.logicalName(s) != null) {
      return OTHER;
    }
    return switch (s.getType()) {
      case INT, LONG -> INTEGRAL;
      case FLOAT, DOUBLE -> FLOATING;
      case BOOLEAN -> BOOLEAN;
      case STRING -> STRING;
      default -> OTHER;
    };
  }

  /** Non-null {@code value}'s cell: by {@code kind} ({@link #kindOf}), else through {@code cell}. */
  static void write(byte kind, CsvCellBytes cell, Utf8Sink out, Object value) throws IOException {
    switch (kind) {
      case INTEGRAL -> integral(out, value);
      case FLOATING -> floating(out, value);
      case BOOLEAN -> out.write((Boolean) value ? TRUE : FALSE);
      case STRING -> string(out, value);
      default -> cell.write(out, value);
    }
  }

  private static void integral(Utf8Sink out, Object value) throws IOException {
    if (value instanceof Integer || value instanceof Long) {
      out.decimal(((Number) value).longValue());
    } else {
      out.ascii(((Number) value).toString());
    }
  }

  /** Digits, a point, an exponent, NaN or Infinity: never a character that needs quotes. */
  private static void floating(Utf8Sink out, Object value) throws IOException {
    if (value instanceof Double d && Double.isFinite(d)) {
      out.finiteDouble(d);
    } else {
      out.ascii(TextFormat.floating(value));
    }
  }

  /** A {@link Utf8} of plain ASCII in one pass (copied as checked, quoted if it must be), else through its text. */
  private static void string(Utf8Sink out, Object value) throws IOException {
    CharSequence s = (CharSequence) value;
    if (s instanceof Utf8 u && out.csvAscii(u.getBytes(), u.getByteLength())) {
      return;
    }
    cell(out, s.toString());
  }

  /** A cell through its text. */
  private static CsvCellBytes text(TextFormat.ValueText text) {
    return new CsvCellBytes() {
      @Override
      void write(Utf8Sink out, Object value) throws IOException {
        cell(out, text.format(value));
      }
    };
  }

  private static CsvCellBytes nested(JsonBytes json) {
    // lone surrogates as the character writer's encoder wrote them before (?), not as JSON escapes
    Utf8Sink scratch = new Utf8Sink(256, false);
    return new CsvCellBytes() {
      @Override
      void write(Utf8Sink out, Object value) throws IOException {
        scratch.reset();
        json.write(scratch, value);
        out.csvCell(scratch.array(), scratch.length());
      }
    };
  }

  /** A cell's text, quoted as {@link CsvRecordWriter#writeCell} quotes it. */
  static void cell(Utf8Sink out, String text) throws IOException {
    if (!CsvRecordWriter.needsQuotes(text)) {
      out.text(text);
      return;
    }
    out.write('"');
    out.text(text.replace("\"", "\"\""));
    out.write('"');
  }
}
