package dev.sluice.internal.log;

import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.basefile.BaseFileWriter;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.basefile.MemoryOutputFile;
import dev.sluice.internal.basefile.WrittenFile;
import dev.sluice.internal.error.Errors;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The content of a {@code PARQUET_DATA_BLOCK} ({@code HoodieParquetDataBlock}): one complete Parquet file (magic
 * {@code PAR1} to footer) of the block's records with their meta fields, in the header's SCHEMA, as parquet-avro
 * writes it. Hudi 0.15 writes it with the table's {@code hoodie.parquet.compression.codec} and dictionary setting,
 * Parquet's default row group (128 MiB) and page (1 MiB) sizes, and no bloom filter or min/max keys in the footer;
 * a block with no records has empty content.
 */
final class ParquetBlockContent {
  /** Parquet's default row group size ({@code ParquetWriter.DEFAULT_BLOCK_SIZE}), which Hudi's block writer uses. */
  static final long ROW_GROUP_SIZE = 128L * 1024 * 1024;
  /** Parquet's default page size ({@code ParquetWriter.DEFAULT_PAGE_SIZE}). */
  static final int PAGE_SIZE = 1024 * 1024;

  private ParquetBlockContent() {
  }

  /** The block writer's options from the table's base file options: their codec and dictionary, Hudi's sizes. */
  static BaseFileWriterOptions options(BaseFileWriterOptions tableOptions) {
    return tableOptions.withRowGroupSize(ROW_GROUP_SIZE).withPageSize(PAGE_SIZE);
  }

  /** Encodes {@code records} into {@code sink} as one Parquet file; nothing at all when there are none. */
  static void write(Iterator<GenericRecord> records, Schema writerSchema, BaseFileWriterOptions options, String label,
      ByteSink sink) throws IOException {
    if (!records.hasNext()) {
      return;
    }
    MemoryOutputFile out = new MemoryOutputFile(label);
    try (BaseFileWriter w = BaseFileWriter.openLogBlock(out, label, writerSchema, options)) {
      while (records.hasNext()) {
        w.write(records.next());
      }
      WrittenFile done = w.finish();
      if (done.recordCount() == 0) {
        throw Errors.internal("an empty Parquet log block was encoded for " + label, null);
      }
    }
    out.writeTo(sink);
  }

  /**
   * Streams the records of a stored block, resolved to {@code readerSchema} by field name: reader fields the file
   * lacks get their defaults (null when there is none), file fields the reader lacks are not decoded.
   */
  static CloseableIterator<GenericRecord> read(StoredContent content, Schema readerSchema) {
    if (content.length() == 0) {
      return CloseableIterator.empty();
    }
    String label = content.path() + " (Parquet log block at offset " + content.blockOffset() + ")";
    // damaged bytes surface from the reader as BAD_TABLE errors naming the label, i.e. the file and block offset
    BaseFileReader reader = BaseFileReader.openRange(content.storage(), content.path(), content.offset(),
        content.length(), label);
    Schema fileSchema = reader.footer().schema();
    List<Schema.Field> present = new ArrayList<>();
    boolean all = true;
    for (Schema.Field f : readerSchema.getFields()) {
      if (fileSchema.getField(f.name()) != null) {
        present.add(new Schema.Field(f.name(), f.schema(), f.doc(), f.defaultVal()));
      } else {
        all = false;
      }
    }
    if (all) {
      return reader.read(readerSchema);
    }
    // an older block than the reader's schema: read the fields it has and default the rest
    Schema projection = Schema.createRecord(readerSchema.getName(), readerSchema.getDoc(), readerSchema.getNamespace(),
        false, present);
    return reader.read(projection).map(r -> widen(r, readerSchema));
  }

  private static GenericRecord widen(GenericRecord r, Schema readerSchema) {
    GenericData.Record out = new GenericData.Record(readerSchema);
    for (Schema.Field f : readerSchema.getFields()) {
      Schema.Field in = r.getSchema().getField(f.name());
      out.put(f.pos(), in != null ? r.get(in.pos()) : f.hasDefaultValue() ? GenericData.get().getDefaultValue(f) : null);
    }
    return out;
  }
}
