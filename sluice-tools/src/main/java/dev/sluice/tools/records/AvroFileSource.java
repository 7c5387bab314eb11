package dev.sluice.tools.records;

import dev.sluice.api.SluiceException;
import dev.sluice.api.CloseableIterator;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.NoSuchElementException;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/** Reads an Avro object container file and resolves each record to the table schema ({@link RecordResolver}). */
final class AvroFileSource implements CloseableIterator<GenericRecord>, NumberedPosition {
  private final Path file;
  private final String name;
  private final DataFileReader<Object> reader;
  private final Converter converter;
  private long count;

  private AvroFileSource(Path file, DataFileReader<Object> reader, Converter converter) {
    this.file = file;
    this.name = file.getFileName().toString();
    this.reader = reader;
    this.converter = converter;
  }

  static AvroFileSource open(Path file, Schema table, InputOptions options) {
    String name = file.getFileName().toString();
    DataFileReader<Object> reader;
    try {
      reader = new DataFileReader<>(file.toFile(), new StringReader());
    } catch (FileNotFoundException | NoSuchFileException e) {
      throw SluiceException.storage("open", file.toString(), e);
    } catch (IOException | AvroRuntimeException e) {
      throw SluiceException.badInput(name, "not a readable Avro container file (" + e.getMessage() + ")", e);
    }
    try {
      Schema writer = reader.getSchema();
      if (writer.getType() != Schema.Type.RECORD) {
        throw SluiceException.badInput(name, null, "the file holds values of type " + Describe.typeName(writer) + ", not records",
            "an Avro file of records");
      }
      return new AvroFileSource(file, reader, RecordResolver.compile(writer, table, options));
    } catch (FieldError e) {
      closeQuietly(reader);
      throw e.toException(name);
    } catch (RuntimeException e) {
      closeQuietly(reader);
      throw e;
    }
  }

  private static void closeQuietly(DataFileReader<Object> reader) {
    try {
      reader.close();
    } catch (IOException e) {
      // Already failing with a more useful error; the close failure adds nothing for the user.
      return;
    }
  }

  @Override
  public boolean hasNext() {
    try {
      return reader.hasNext();
    } catch (AvroRuntimeException e) {
      throw SluiceException.badInput(name + ": record " + (count + 1), "cannot be decoded (" + e.getMessage() + ")", e);
    }
  }

  @Override
  public String positionPrefix() {
    return name + ": record ";
  }

  @Override
  public long positionNumber() {
    return count;
  }

  @Override
  public GenericRecord next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    count++;
    Object raw;
    try {
      raw = reader.next();
    } catch (AvroRuntimeException e) {
      throw SluiceException.badInput(name + ": record " + count, "cannot be decoded (" + e.getMessage() + ")", e);
    }
    return RecordResolver.convertFileRecord(converter, raw, name, count);
  }

  @Override
  public void close() {
    try {
      reader.close();
    } catch (IOException e) {
      throw SluiceException.storage("close", file.toString(), e);
    }
  }

  /** Reads strings as {@link String} (not Avro's {@code Utf8}) so every source yields the same representation. */
  private static final class StringReader extends GenericDatumReader<Object> {
    @Override
    protected Class<?> findStringClass(Schema schema) {
      return String.class;
    }
  }
}
