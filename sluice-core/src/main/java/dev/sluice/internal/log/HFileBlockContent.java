package dev.sluice.internal.log;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.hfile.HFileCell;
import dev.sluice.internal.hfile.HFileReader;
import dev.sluice.internal.hfile.HFileWriter;
import dev.sluice.internal.hfile.HFileWriterOptions;
import dev.sluice.api.CloseableIterator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * The content of an {@code HFILE_DATA_BLOCK} ({@code HoodieHFileDataBlock}, used by the metadata table): one
 * complete HFile whose cells are the block's records sorted by record key, row = the UTF-8 key, value = the
 * record's Avro binary encoding (writer schema = the header's SCHEMA) with its key field set to {@code ""} so the
 * key is not stored twice; the file info has {@code schema} = that schema. Readers put the row key back into the
 * key field ({@code HoodieAvroHFileReaderImplBase.deserialize}, key field {@code "key"}). Hudi writes GZ blocks;
 * Sluice writes GZ blocks of at most 128 KiB (see {@link HFileWriterOptions}).
 */
final class HFileBlockContent {
  /** The key field Hudi's readers restore from the row ({@code HoodieAvroHFileReaderImplBase.KEY_FIELD_NAME}). */
  static final String KEY_FIELD = "key";
  /** File info entry holding the writer schema ({@code HoodieAvroHFileReaderImplBase.SCHEMA_KEY}). */
  static final String SCHEMA_KEY = "schema";

  private HFileBlockContent() {
  }

  /**
   * Encodes {@code records} into {@code sink} as one HFile, sorted by the string value of {@code keyField} in
   * unsigned UTF-8 byte order. Two records with one key are refused (Hudi 1.1 refuses them too).
   */
  static void write(Iterator<GenericRecord> records, Schema writerSchema, String keyField, String label, ByteSink sink) {
    Schema.Field key = writerSchema.getField(keyField);
    if (key == null) {
      throw Errors.badInput(label, keyField, "the writer schema has no key field", "a string field named " + keyField);
    }
    List<Keyed> sorted = new ArrayList<>();
    GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(writerSchema);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BinaryEncoder encoder = null;
    int n = 0;
    while (records.hasNext()) {
      GenericRecord r = records.next();
      Object k = r.get(key.pos());
      if (k == null) {
        throw Errors.badInput(label + ", record " + n, keyField, "the record key is null", "a record key");
      }
      // the key lives in the row: the value holds the record with an empty key field, as Hudi writes it
      GenericData.Record copy = new GenericData.Record(writerSchema);
      for (Schema.Field f : writerSchema.getFields()) {
        copy.put(f.pos(), f.pos() == key.pos() ? "" : r.get(f.pos()));
      }
      bytes.reset();
      encoder = EncoderFactory.get().binaryEncoder(bytes, encoder);
      try {
        writer.write(copy, encoder);
        encoder.flush();
      } catch (AvroRuntimeException | NullPointerException | ClassCastException | IOException e) {
        throw Errors.badInput(label + ", record " + n, "it does not match the block's writer schema: " + e.getMessage(), e);
      }
      sorted.add(new Keyed(k.toString().getBytes(StandardCharsets.UTF_8), bytes.toByteArray()));
      n++;
    }
    sorted.sort((a, b) -> Arrays.compareUnsigned(a.key, b.key));
    try (HFileWriter w = HFileWriter.to(sink, label, HFileWriterOptions.defaults())) {
      w.fileInfo(SCHEMA_KEY, writerSchema.toString().getBytes(StandardCharsets.UTF_8));
      for (Keyed k : sorted) {
        w.append(k.key, k.value);
      }
    }
  }

  private record Keyed(byte[] key, byte[] value) {
  }

  /**
   * Streams a stored block's records in key order, decoded with {@code writerSchema} and resolved to
   * {@code readerSchema}; an empty {@code "key"} field gets the row key back. Damaged bytes are BAD_TABLE errors
   * naming the log file and offset.
   */
  static CloseableIterator<GenericRecord> read(StoredContent content, Schema writerSchema, Schema readerSchema) {
    HFileReader hfile = HFileReader.open(content.storage(), content.path(), content.offset(), content.length());
    CloseableIterator<HFileCell> cells;
    try {
      cells = hfile.scan();
    } catch (RuntimeException e) {
      hfile.close();
      throw e;
    }
    return decode(content, hfile, cells, writerSchema, readerSchema);
  }

  /**
   * The records of a stored block whose keys are among {@code sortedKeys} (UTF-8, sorted unsigned),
   * in key order, found by seeks through the block's HFile index, not by reading every cell.
   */
  static CloseableIterator<GenericRecord> lookup(StoredContent content, Schema writerSchema, Schema readerSchema,
      List<byte[]> sortedKeys) {
    HFileReader hfile = HFileReader.open(content.storage(), content.path(), content.offset(), content.length());
    // one forward pass over the blocks the sorted keys fall in (HFileReader#getAll)
    CloseableIterator<HFileCell> cells = hfile.getAll(sortedKeys.iterator());
    return decode(content, hfile, cells, writerSchema, readerSchema);
  }

  private static CloseableIterator<GenericRecord> decode(StoredContent content, HFileReader hfile,
      CloseableIterator<HFileCell> cells, Schema writerSchema, Schema readerSchema) {
    GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(writerSchema, readerSchema);
    Schema.Field key = readerSchema.getField(KEY_FIELD);
    return new CloseableIterator<>() {
      private BinaryDecoder decoder;

      @Override
      public boolean hasNext() {
        boolean more = cells.hasNext();
        if (!more) {
          close();
        }
        return more;
      }

      @Override
      public GenericRecord next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        HFileCell c = cells.next();
        try {
          decoder = DecoderFactory.get().binaryDecoder(c.value(), decoder);
          GenericRecord r = reader.read(null, decoder);
          if (key != null) {
            Object v = r.get(key.pos());
            if (v == null || v.toString().isEmpty()) {
              r.put(key.pos(), c.keyString());
            }
          }
          return r;
        } catch (AvroTypeException e) {
          close();
          throw Errors.badTable(content.path(), "the records of the HFile log block at offset " + content.blockOffset()
              + " do not resolve to the reader schema: " + e.getMessage(),
              "Read with a schema that is a compatible evolution of the block's writer schema.", e);
        } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException | ClassCastException e) {
          close();
          throw content.failure(new DamagedContentException("record '" + c.keyString() + "': " + e.getMessage(), e));
        }
      }

      @Override
      public void close() {
        cells.close();
        hfile.close();
      }
    };
  }
}
