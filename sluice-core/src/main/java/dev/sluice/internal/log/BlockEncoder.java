package dev.sluice.internal.log;

import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.error.Errors;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Serializes one block, framing included, into a reused buffer ({@code HoodieLogFormatWriter.appendBlocks}):
 * magic, block length, format version, type, header, content length, content, footer (always empty), reverse
 * pointer. Records are encoded straight into the buffer by one reused Avro encoder.
 */
final class BlockEncoder {
  private static final int INITIAL_BUFFER = 64 * 1024;
  private final ByteSink sink = new ByteSink(INITIAL_BUFFER);
  private final Map<Schema, GenericDatumWriter<GenericRecord>> writers = new IdentityHashMap<>();
  private BinaryEncoder encoder;

  /**
   * Encodes {@code blocks} back to back, so that a block that cannot be encoded fails the append before anything
   * is written. The returned buffer is valid until the next call.
   */
  ByteSink encode(List<LogBlock> blocks) throws IOException {
    sink.reset();
    for (LogBlock b : blocks) {
      encode(b);
    }
    return sink;
  }

  private void encode(LogBlock block) throws IOException {
    int start = sink.size();
    sink.write(LogFormat.MAGIC, 0, LogFormat.MAGIC.length);
    int lengthPos = sink.size();
    sink.writeLong(0);
    sink.writeInt(LogFormat.FORMAT_VERSION);
    sink.writeInt(block.type().ordinal());
    int headerStart = sink.size();
    writeMetadata(block.header());
    int headerLength = sink.size() - headerStart;
    int contentLengthPos = sink.size();
    sink.writeLong(0);
    int contentStart = sink.size();
    writeContent(block);
    int contentLength = sink.size() - contentStart;
    sink.putLong(contentLengthPos, contentLength);
    int footerStart = sink.size();
    // 0.15 has no footer keys: an empty map
    sink.writeInt(0);
    int footerLength = sink.size() - footerStart;
    sink.putLong(lengthPos, LogFormat.blockLength(headerLength, contentLength, footerLength));
    // the reverse pointer counts every byte of the block before it, magic included
    sink.writeLong(sink.size() - start);
  }

  /** The encoder writing into the sink; one for the writer's life, as the sink never changes. */
  private BinaryEncoder encoder() {
    if (encoder == null) {
      encoder = EncoderFactory.get().binaryEncoder(sink, null);
    }
    return encoder;
  }

  private void writeMetadata(Map<HeaderKey, String> entries) {
    sink.writeInt(entries.size());
    for (Map.Entry<HeaderKey, String> e : entries.entrySet()) {
      byte[] value = e.getValue().getBytes(StandardCharsets.UTF_8);
      sink.writeInt(e.getKey().ordinal());
      sink.writeInt(value.length);
      sink.write(value, 0, value.length);
    }
  }

  private void writeContent(LogBlock block) throws IOException {
    if (block instanceof DataBlock d) {
      writeData(d);
    } else if (block instanceof DeleteBlock d) {
      writeDeletes(d);
    } else if (block instanceof CorruptBlock) {
      throw Errors.internal("a corrupt block cannot be written", null);
    }
    // a command block has no content: its meaning is all in its header
  }

  private void writeData(DataBlock block) throws IOException {
    if (block.type() == LogBlockType.PARQUET_DATA_BLOCK) {
      writeParquet(block);
      return;
    }
    if (block.type() == LogBlockType.HFILE_DATA_BLOCK) {
      writeHFile(block);
      return;
    }
    if (block.type() != LogBlockType.AVRO_DATA_BLOCK && block.type() != LogBlockType.CDC_DATA_BLOCK) {
      throw Errors.unsupported("Writing a " + block.type(), "Write Avro data blocks.");
    }
    Schema schema = block.writerSchema();
    GenericDatumWriter<GenericRecord> writer = writers.computeIfAbsent(schema, GenericDatumWriter::new);
    sink.writeInt(LogFormat.CONTENT_VERSION);
    int countPos = sink.size();
    sink.writeInt(0);
    int count = 0;
    List<GenericRecord> inMemory = block.inMemoryRecords().orElse(null);
    try (CloseableIterator<GenericRecord> stored = inMemory == null ? block.records(schema) : CloseableIterator.empty()) {
      Iterator<GenericRecord> it = inMemory == null ? stored : inMemory.iterator();
      while (it.hasNext()) {
        GenericRecord r = it.next();
        int lengthPos = sink.size();
        sink.writeInt(0);
        BinaryEncoder encoder = encoder();
        try {
          writer.write(r, encoder);
          encoder.flush();
        } catch (AvroRuntimeException | NullPointerException | ClassCastException e) {
          // a new encoder next time: this one may hold part of the failed record
          this.encoder = null;
          throw Errors.badInput("record " + count + " of the log block of instant " + block.header().get(HeaderKey.INSTANT_TIME),
              "it does not match the block's writer schema: " + e.getMessage(), e);
        }
        sink.putInt(lengthPos, sink.size() - lengthPos - Integer.BYTES);
        count++;
      }
    }
    sink.putInt(countPos, count);
  }

  private void writeParquet(DataBlock block) throws IOException {
    Schema schema = block.writerSchema();
    String label = "the Parquet log block of instant " + block.header().get(HeaderKey.INSTANT_TIME);
    // a stored Parquet block being rewritten (no options of its own) keeps the default encoding
    BaseFileWriterOptions options = block.parquetOptions()
        .orElseGet(() -> ParquetBlockContent.options(BaseFileWriterOptions.defaults()));
    List<GenericRecord> inMemory = block.inMemoryRecords().orElse(null);
    try (CloseableIterator<GenericRecord> stored = inMemory == null ? block.records(schema) : CloseableIterator.empty()) {
      ParquetBlockContent.write(inMemory == null ? stored : inMemory.iterator(), schema, options, label, sink);
    }
  }

  private void writeHFile(DataBlock block) {
    Schema schema = block.writerSchema();
    String label = "the HFile log block of instant " + block.header().get(HeaderKey.INSTANT_TIME);
    // a stored HFile block being rewritten keeps the key field Hudi's readers restore
    String keyField = block.hfileKeyField().orElse(HFileBlockContent.KEY_FIELD);
    List<GenericRecord> inMemory = block.inMemoryRecords().orElse(null);
    try (CloseableIterator<GenericRecord> stored = inMemory == null ? block.records(schema) : CloseableIterator.empty()) {
      HFileBlockContent.write(inMemory == null ? stored : inMemory.iterator(), schema, keyField, label, sink);
    }
  }

  private void writeDeletes(DeleteBlock block) throws IOException {
    sink.writeInt(LogFormat.CONTENT_VERSION);
    int lengthPos = sink.size();
    sink.writeInt(0);
    BinaryEncoder encoder = encoder();
    try {
      DeleteRecordCodec.encode(block.inMemoryRecords().orElseGet(block::readAll), encoder);
      encoder.flush();
    } catch (IllegalArgumentException | ArithmeticException e) {
      this.encoder = null;
      throw Errors.badInput("the delete block of instant " + block.header().get(HeaderKey.INSTANT_TIME),
          "an ordering value cannot be stored: " + e.getMessage(), e);
    }
    sink.putInt(lengthPos, sink.size() - lengthPos - Integer.BYTES);
  }
}
