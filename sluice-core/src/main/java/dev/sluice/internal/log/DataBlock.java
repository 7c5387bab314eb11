package dev.sluice.internal.log;

import dev.sluice.internal.util.ParsedSchemas;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.error.Errors;
import dev.sluice.api.CloseableIterator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * A block of records ({@code HoodieDataBlock}). Built in memory from a list of Avro records for writing; read
 * from a file it holds only the content's location, and {@link #records(Schema)} streams the records from storage
 * one at a time, decoding each with the block's writer schema (header {@code SCHEMA}) resolved to the reader's.
 *
 * <p>Content of an Avro block ({@code HoodieAvroDataBlock}): int content version (3), int record count, then per
 * record an int length and the record's Avro binary encoding. A Parquet block's content is one Parquet file
 * ({@link ParquetBlockContent}).
 */
public final class DataBlock implements LogBlock {
  private final LogBlockType type;
  private final Map<HeaderKey, String> header;
  private final Optional<BlockSpan> span;
  private final Schema writerSchema;
  private final List<GenericRecord> records;
  private final StoredContent stored;
  private final int recordCount;
  /** How a Parquet block to write is encoded; null for Avro blocks and stored blocks. */
  private final BaseFileWriterOptions parquetOptions;
  /** The record key field of an HFile block to write; null for other blocks and stored blocks. */
  private final String hfileKeyField;

  /**
   * An Avro data block to write. The header gets {@code SCHEMA = writerSchema} (a {@code SCHEMA} already in
   * {@code header} must be that schema); Hudi's writers also put {@code INSTANT_TIME}.
   */
  public DataBlock(Map<HeaderKey, String> header, Schema writerSchema, List<GenericRecord> records) {
    this(LogBlockType.AVRO_DATA_BLOCK, header, writerSchema, records, null);
  }

  /**
   * A Parquet data block to write ({@code hoodie.logfile.data.block.format=parquet}): the records become one
   * Parquet file encoded with the codec and dictionary setting of {@code tableOptions} (the table's base file
   * options) and Hudi's fixed block writer sizes. Header as for {@link #DataBlock(Map, Schema, List)}.
   */
  public static DataBlock parquet(Map<HeaderKey, String> header, Schema writerSchema, List<GenericRecord> records,
      BaseFileWriterOptions tableOptions) {
    return new DataBlock(LogBlockType.PARQUET_DATA_BLOCK, header, writerSchema, records,
        ParquetBlockContent.options(Objects.requireNonNull(tableOptions, "tableOptions")));
  }

  /**
   * An HFile data block to write (the metadata table's log blocks): the records become one HFile keyed by the
   * string value of {@code keyField} (Hudi's metadata table uses {@code "key"}), see {@link HFileBlockContent}.
   * Header as for {@link #DataBlock(Map, Schema, List)}; keys must be distinct.
   */
  public static DataBlock hfile(Map<HeaderKey, String> header, Schema writerSchema, List<GenericRecord> records,
      String keyField) {
    return new DataBlock(LogBlockType.HFILE_DATA_BLOCK, header, writerSchema, records, null,
        Objects.requireNonNull(keyField, "keyField"));
  }

  private DataBlock(LogBlockType type, Map<HeaderKey, String> header, Schema writerSchema, List<GenericRecord> records,
      BaseFileWriterOptions parquetOptions) {
    this(type, header, writerSchema, records, parquetOptions, null);
  }

  private DataBlock(LogBlockType type, Map<HeaderKey, String> header, Schema writerSchema, List<GenericRecord> records,
      BaseFileWriterOptions parquetOptions, String hfileKeyField) {
    Objects.requireNonNull(writerSchema, "writerSchema");
    Map<HeaderKey, String> h = new EnumMap<>(HeaderKey.class);
    h.putAll(header);
    String given = h.get(HeaderKey.SCHEMA);
    // writers pass the schema's own text: comparing strings saves parsing it for every block
    if (given != null && !given.equals(writerSchema.toString()) && !ParsedSchemas.parse(given).equals(writerSchema)) {
      throw Errors.internal("the SCHEMA header of a data block differs from its writer schema", null);
    }
    if (given == null) {
      h.put(HeaderKey.SCHEMA, writerSchema.toString());
    }
    this.type = type;
    this.parquetOptions = parquetOptions;
    this.hfileKeyField = hfileKeyField;
    this.header = LogFormat.copyHeader(h);
    this.span = Optional.empty();
    this.writerSchema = writerSchema;
    this.records = List.copyOf(records);
    this.stored = null;
    this.recordCount = this.records.size();
  }

  private DataBlock(LogBlockType type, Map<HeaderKey, String> header, BlockSpan span, Schema writerSchema,
                    StoredContent stored, int recordCount) {
    this.type = type;
    this.header = LogFormat.copyHeader(header);
    this.span = Optional.of(span);
    this.writerSchema = writerSchema;
    this.records = null;
    this.stored = stored;
    this.recordCount = recordCount;
    this.parquetOptions = null;
    this.hfileKeyField = null;
  }

  /** An Avro data block as Hudi's append handle writes it: header {@code INSTANT_TIME} and {@code SCHEMA}. */
  public static DataBlock of(String instantTime, Schema writerSchema, List<GenericRecord> records) {
    return new DataBlock(Map.of(HeaderKey.INSTANT_TIME, instantTime), writerSchema, records);
  }

  /**
   * A block read from a file; its content stays on storage. {@code writerSchema} is null if the header has none;
   * {@code recordCount} is -1 if unknown.
   */
  static DataBlock stored(LogBlockType type, Map<HeaderKey, String> header, BlockSpan span, Schema writerSchema,
                          StoredContent content, int recordCount) {
    return new DataBlock(type, header, span, writerSchema, content, recordCount);
  }

  @Override
  public LogBlockType type() {
    return type;
  }

  @Override
  public Map<HeaderKey, String> header() {
    return header;
  }

  @Override
  public Optional<BlockSpan> span() {
    return span;
  }

  /** The schema the records were written with (header {@code SCHEMA}). */
  public Schema writerSchema() {
    if (writerSchema == null) {
      throw Errors.badTable(stored.path(), "the data block at offset " + stored.blockOffset() + " has no SCHEMA header",
          LogFormat.DAMAGED_FIX);
    }
    return writerSchema;
  }

  /** The number of records, when known without decoding (Avro blocks); empty for Parquet and HFile blocks. */
  public OptionalInt recordCount() {
    return recordCount < 0 ? OptionalInt.empty() : OptionalInt.of(recordCount);
  }

  /** The file and offset of a stored block, for messages. */
  String location() {
    return stored == null ? "an in-memory log block" : stored.path() + " (log block at offset " + stored.blockOffset() + ")";
  }

  /** Where a stored block's content lies; empty for a block built in memory. */
  Optional<StoredContent> storedContent() {
    return Optional.ofNullable(stored);
  }

  /** The encoding options of a Parquet block built for writing; empty for Avro blocks and stored blocks. */
  Optional<BaseFileWriterOptions> parquetOptions() {
    return Optional.ofNullable(parquetOptions);
  }

  /** The record key field of an HFile block built for writing; empty for other blocks and stored blocks. */
  Optional<String> hfileKeyField() {
    return Optional.ofNullable(hfileKeyField);
  }

  /** The in-memory records of a block built for writing; empty for a block read from a file. */
  Optional<List<GenericRecord>> inMemoryRecords() {
    return Optional.ofNullable(records);
  }

  /**
   * The records, decoded with the writer schema and resolved to {@code readerSchema} (Avro schema resolution:
   * fields missing from the writer get their defaults, extra writer fields are dropped). Streams from storage;
   * close the iterator. Read failures surface as {@link dev.sluice.api.SluiceException}s naming the file.
   */
  public CloseableIterator<GenericRecord> records(Schema readerSchema) {
    Objects.requireNonNull(readerSchema, "readerSchema");
    if (records != null) {
      return readerSchema.equals(writerSchema) ? CloseableIterator.of(records) : resolveInMemory(readerSchema);
    }
    if (type == LogBlockType.PARQUET_DATA_BLOCK) {
      return ParquetBlockContent.read(stored, readerSchema);
    }
    if (type == LogBlockType.HFILE_DATA_BLOCK) {
      return HFileBlockContent.read(stored, writerSchema(), readerSchema);
    }
    if (type != LogBlockType.AVRO_DATA_BLOCK && type != LogBlockType.CDC_DATA_BLOCK) {
      throw Errors.unsupported("Reading records of a " + type + " (in " + stored.path() + " at offset " + stored.blockOffset() + ")",
          "Have Hudi write Avro or Parquet log blocks (hoodie.logfile.data.block.format=avro or parquet).");
    }
    Schema writer = writerSchema();
    try {
      return new StoredRecords(stored, new GenericDatumReader<>(writer, readerSchema));
    } catch (IOException e) {
      throw stored.failure(e);
    }
  }

  /**
   * The records of a stored HFile block (the metadata table's) whose keys are among {@code sortedKeys} (UTF-8 bytes,
   * sorted unsigned), in key order: each key is a seek through the block's HFile index. The caller encodes the keys
   * once for all the blocks it asks.
   */
  public CloseableIterator<GenericRecord> lookup(List<byte[]> sortedKeys, Schema readerSchema) {
    Objects.requireNonNull(readerSchema, "readerSchema");
    if (type != LogBlockType.HFILE_DATA_BLOCK || stored == null) {
      throw Errors.internal("key lookups are for stored HFile blocks, not a " + type + (stored == null ? " in memory" : ""),
          null);
    }
    return HFileBlockContent.lookup(stored, writerSchema(), readerSchema, sortedKeys);
  }

  private CloseableIterator<GenericRecord> resolveInMemory(Schema readerSchema) {
    // blocks built in memory are for writing; resolving them goes through the encoding like a stored block
    GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(writerSchema);
    GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(writerSchema, readerSchema);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    return CloseableIterator.of(records).map(r -> {
      try {
        bytes.reset();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(bytes, null);
        writer.write(r, enc);
        enc.flush();
        return reader.read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
      } catch (IOException e) {
        throw Errors.internal("re-encoding an in-memory record failed", e);
      }
    });
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DataBlock b && b.type == type && b.header.equals(header) && b.span.equals(span)
        && Objects.equals(b.records, records) && Objects.equals(b.stored, stored);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, header, span, records, stored);
  }

  @Override
  public String toString() {
    return "DataBlock{" + type + ", instant=" + header.get(HeaderKey.INSTANT_TIME) + ", records="
        + (recordCount < 0 ? "?" : recordCount) + span.map(s -> ", at " + s.offset() + "+" + s.size()).orElse("") + "}";
  }

  /** Streams an Avro block's records: one reused buffer and decoder for all of them. */
  private static final class StoredRecords implements CloseableIterator<GenericRecord> {
    private final StoredContent content;
    private final GenericDatumReader<GenericRecord> reader;
    private final byte[] scratch = new byte[4];
    private InputStream in;
    private byte[] buf = new byte[1024];
    private BinaryDecoder decoder;
    private int left;

    StoredRecords(StoredContent content, GenericDatumReader<GenericRecord> reader) throws IOException {
      this.content = content;
      this.reader = reader;
      this.in = content.open();
      try {
        StoredContent.readInt(in, scratch);
        left = StoredContent.readInt(in, scratch);
        if (left < 0) {
          throw new DamagedContentException("negative record count " + left);
        }
      } catch (IOException | RuntimeException e) {
        close();
        throw e;
      }
    }

    @Override
    public boolean hasNext() {
      if (left == 0) {
        close();
        return false;
      }
      return true;
    }

    @Override
    public GenericRecord next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      try {
        int len = StoredContent.readInt(in, scratch);
        if (len < 0) {
          throw new DamagedContentException("negative record length " + len);
        }
        if (len > buf.length) {
          buf = new byte[(int) Math.max(len, Math.min(Integer.MAX_VALUE - 16, buf.length * 2L))];
        }
        StoredContent.readFully(in, buf, len);
        decoder = DecoderFactory.get().binaryDecoder(buf, 0, len, decoder);
        GenericRecord r = reader.read(null, decoder);
        left--;
        return r;
      } catch (IOException e) {
        close();
        throw content.failure(e);
      } catch (AvroTypeException e) {
        close();
        throw Errors.badTable(content.path(), "the records of the log block at offset " + content.blockOffset()
            + " do not resolve to the reader schema: " + e.getMessage(),
            "Read with a schema that is a compatible evolution of the block's writer schema.", e);
      } catch (AvroRuntimeException | IndexOutOfBoundsException | ClassCastException e) {
        close();
        throw content.damaged(e);
      }
    }

    @Override
    public void close() {
      left = 0;
      if (in != null) {
        try {
          in.close();
        } catch (IOException e) {
          // a failed close of a read-only stream loses nothing: the records read so far are complete
        } finally {
          in = null;
        }
      }
    }
  }
}
