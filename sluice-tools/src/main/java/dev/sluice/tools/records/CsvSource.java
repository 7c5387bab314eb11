package dev.sluice.tools.records;

import dev.sluice.api.SluiceException;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads a UTF-8 CSV file whose first line names the columns (table field names, any order). Columns missing
 * from the header take the field default or null; a header naming no table field is an error unless unknown
 * fields are ignored.
 */
final class CsvSource implements CloseableIterator<GenericRecord>, NumberedPosition {
  private final Path file;
  private final String name;
  private final CsvParser parser;
  private final Schema schema;
  private final int columns;
  /** Per column: the table field position, or -1 to skip the column. */
  private final int[] fieldOf;
  private final CellReaders.CellReader[] readers;
  /** Per field: its rule when absent from the header, or null when a column supplies it. */
  private final Missing[] absent;
  private GenericRecord next;
  private boolean done;
  private long nextLine = -1;
  private long returnedLine = -1;

  private CsvSource(Path file, CsvParser parser, Schema schema, int[] fieldOf, CellReaders.CellReader[] readers,
      Missing[] absent) {
    this.file = file;
    this.name = file.getFileName().toString();
    this.parser = parser;
    this.schema = schema;
    this.columns = fieldOf.length;
    this.fieldOf = fieldOf;
    this.readers = readers;
    this.absent = absent;
  }

  static CsvSource open(Path file, Schema schema, InputOptions options) {
    String name = file.getFileName().toString();
    CsvParser parser;
    try {
      Reader reader = new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
      parser = new CsvParser(reader, name, options.maxValueLength());
    } catch (IOException e) {
      throw SluiceException.storage("open", file.toString(), e);
    }
    try {
      if (!parser.next()) {
        throw SluiceException.badInput(name + ":1", null, "the file is empty", "a header line naming the columns");
      }
      return fromHeader(file, parser, schema, options);
    } catch (CharacterCodingException e) {
      closeQuietly(parser);
      throw notUtf8(name, parser);
    } catch (IOException e) {
      closeQuietly(parser);
      throw SluiceException.storage("read", file.toString(), e);
    } catch (RuntimeException e) {
      closeQuietly(parser);
      throw e;
    }
  }

  private static CsvSource fromHeader(Path file, CsvParser parser, Schema schema, InputOptions options) {
    String name = file.getFileName().toString();
    int n = parser.size();
    int[] fieldOf = new int[n];
    CellReaders.CellReader[] readers = new CellReaders.CellReader[n];
    Map<String, Integer> seen = new HashMap<>();
    Missing[] absent = new Missing[schema.getFields().size()];
    for (Schema.Field f : schema.getFields()) {
      absent[f.pos()] = Missing.of(f);
    }
    for (int i = 0; i < n; i++) {
      String column = parser.text(i).strip();
      String where = name + ":" + parser.line(i);
      if (seen.put(column, i) != null) {
        throw SluiceException.badInput(where, column, "the header names this column twice", "each column once");
      }
      Schema.Field f = schema.getField(column);
      if (f == null) {
        if (!options.ignoreUnknownFields()) {
          throw SluiceException.badInput(where, column, "the header names a column that is not a field of the table",
              "only columns " + fieldNames(schema) + " (or ignore unknown fields)");
        }
        fieldOf[i] = -1;
        continue;
      }
      fieldOf[i] = f.pos();
      readers[i] = CellReaders.compile(f, options);
      absent[f.pos()] = null;
    }
    for (Schema.Field f : schema.getFields()) {
      Missing m = absent[f.pos()];
      if (m != null && m.required()) {
        throw SluiceException.badInput(name + ":1", f.name(), "the header has no column for this field",
            "a column for every field that is not nullable and has no default");
      }
    }
    List<String> columns = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      columns.add(parser.text(i).strip());
    }
    parser.columnNames(columns);
    return new CsvSource(file, parser, schema, fieldOf, readers, absent);
  }

  /** The decoder reads ahead in blocks, so the line of the bad bytes is known only as a lower bound. */
  private static SluiceException notUtf8(String name, CsvParser parser) {
    return SluiceException.badInput(name, null,
        "the file is not valid UTF-8 (the bad bytes are at or after line " + parser.currentLine() + ")", "a UTF-8 text file");
  }

  private static String fieldNames(Schema schema) {
    List<String> names = new ArrayList<>();
    for (Schema.Field f : schema.getFields()) {
      names.add(f.name());
    }
    return Describe.symbols(names);
  }

  private static void closeQuietly(CsvParser parser) {
    try {
      parser.close();
    } catch (IOException e) {
      // Already failing with a more useful error; the close failure adds nothing for the user.
      return;
    }
  }

  @Override
  public boolean hasNext() {
    if (next == null && !done) {
      // After a failure the input position is unknown: end the iteration rather than read on from it.
      done = true;
      next = advance();
      done = next == null;
    }
    return next != null;
  }

  @Override
  public GenericRecord next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    GenericRecord out = next;
    next = null;
    returnedLine = nextLine;
    return out;
  }

  @Override
  public String positionPrefix() {
    return name + ":";
  }

  @Override
  public long positionNumber() {
    return returnedLine;
  }

  private GenericRecord advance() {
    try {
      if (!parser.next()) {
        return null;
      }
    } catch (OutOfMemoryError e) {
      throw SluiceException.outOfResources("Reading input", name + ":" + parser.recordLine(), e);
    } catch (CharacterCodingException e) {
      throw notUtf8(name, parser);
    } catch (IOException e) {
      throw SluiceException.storage("read", file.toString(), e);
    }
    if (parser.size() != columns) {
      throw SluiceException.badInput(name + ":" + parser.recordLine(), null,
          "the line has " + parser.size() + " values but the header has " + columns + " columns",
          "one value per header column (quote values that contain commas)");
    }
    nextLine = parser.recordLine();
    GenericData.Record rec = new GenericData.Record(schema);
    for (int i = 0; i < columns; i++) {
      int pos = fieldOf[i];
      if (pos < 0) {
        continue;
      }
      try {
        rec.put(pos, readers[i].read(parser.text(i), parser.quoted(i)));
      } catch (FieldError e) {
        throw e.inField(schema.getFields().get(pos).name()).toException(name + ":" + parser.line(i));
      }
    }
    for (int pos = 0; pos < absent.length; pos++) {
      if (absent[pos] != null) {
        rec.put(pos, absent[pos].value());
      }
    }
    return rec;
  }

  @Override
  public void close() {
    try {
      parser.close();
    } catch (IOException e) {
      throw SluiceException.storage("close", file.toString(), e);
    }
  }
}
