package dev.sluice.tools.records;

import dev.sluice.api.SluiceException;
import dev.sluice.api.CloseableIterator;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.NoSuchElementException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;

/**
 * Reads a Parquet file through parquet-avro with the file's own schema, then resolves each record to the
 * table schema by field name ({@link RecordResolver}). The Avro view of the file schema is known from the first
 * record; the Parquet footer is read first to recover INT32/INT64 decimals ({@link ParquetIntDecimals}).
 */
final class ParquetFileSource implements CloseableIterator<GenericRecord>, NumberedPosition {
  private final Path file;
  private final String name;
  private final ParquetReader<GenericRecord> reader;
  private final Schema table;
  private final InputOptions options;
  private final MessageType parquetSchema;
  private Schema fileSchema;
  private Converter converter;
  private GenericRecord pending;
  private boolean done;
  private long count;

  private ParquetFileSource(Path file, ParquetReader<GenericRecord> reader, MessageType parquetSchema, Schema table,
      InputOptions options) {
    this.file = file;
    this.parquetSchema = parquetSchema;
    this.name = file.getFileName().toString();
    this.reader = reader;
    this.table = table;
    this.options = options;
  }

  static ParquetFileSource open(Path file, Schema table, InputOptions options) {
    String name = file.getFileName().toString();
    LocalInputFile input = new LocalInputFile(file);
    MessageType parquetSchema;
    try (ParquetFileReader footer = ParquetFileReader.open(input)) {
      parquetSchema = footer.getFileMetaData().getSchema();
    } catch (FileNotFoundException | NoSuchFileException e) {
      throw SluiceException.storage("open", file.toString(), e);
    } catch (IOException | RuntimeException e) {
      throw SluiceException.badInput(name, "not a readable Parquet file (" + e.getMessage() + ")", e);
    }
    try {
      PlainParquetConfiguration conf = new PlainParquetConfiguration();
      // Lists as plain Avro arrays (not arrays of one-field records), and legacy INT96 timestamps as fixed(12)
      // bytes, which ScalarResolver converts, rather than a read failure.
      conf.set("parquet.avro.add-list-element-records", "false");
      conf.set("parquet.avro.readInt96AsFixed", "true");
      ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(input, conf)
          .withDataModel(GenericData.get()).build();
      return new ParquetFileSource(file, reader, ParquetIntDecimals.present(parquetSchema) ? parquetSchema : null, table, options);
    } catch (IOException | RuntimeException e) {
      throw SluiceException.badInput(name, "not a readable Parquet file (" + e.getMessage() + ")", e);
    }
  }

  @Override
  public boolean hasNext() {
    if (pending == null && !done) {
      try {
        pending = reader.read();
      } catch (IOException | RuntimeException e) {
        throw SluiceException.badInput(name + ": record " + (count + 1), "cannot be decoded (" + e.getMessage() + ")", e);
      }
      done = pending == null;
    }
    return pending != null;
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
    GenericRecord raw = pending;
    pending = null;
    count++;
    if (raw.getSchema() != fileSchema) {
      try {
        Schema source = parquetSchema == null ? raw.getSchema() : ParquetIntDecimals.annotate(raw.getSchema(), parquetSchema);
        converter = RecordResolver.compile(source, table, options);
      } catch (FieldError e) {
        throw e.toException(name);
      }
      fileSchema = raw.getSchema();
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
}
