package dev.sluice.internal.spill;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * {@link GenericRecord}s of one schema as a four-byte length and the record's Avro binary encoding. The encoder,
 * decoder and buffers are reused across calls, so an instance is not thread-safe.
 *
 * <p>{@link #estimateSize} walks the record along its schema for the first {@value #WARMUP} records and then
 * for one record in {@value #SAMPLE_EVERY}, and otherwise answers a moving average of those walks: a put costs
 * an addition, not an encode or a walk, and the average follows a drift in record sizes within a few hundred
 * records. Records read back hold {@link org.apache.avro.util.Utf8} strings, as Avro's generic reader makes them.
 */
public final class AvroRecordSerializer implements RecordSerializer<GenericRecord> {
  static final int WARMUP = 16;
  static final int SAMPLE_EVERY = 32;

  private final Schema schema;
  private final GenericDatumWriter<GenericRecord> writer;
  private final GenericDatumReader<GenericRecord> reader;
  private final ByteSink scratch = new ByteSink(256);
  private BinaryEncoder encoder;
  private BinaryDecoder decoder;
  private byte[] readScratch = new byte[256];
  private long calls;
  private double average;

  /** A serializer for records of {@code schema}. */
  public AvroRecordSerializer(Schema schema) {
    this.schema = Objects.requireNonNull(schema, "schema");
    this.writer = new GenericDatumWriter<>(schema);
    this.reader = new GenericDatumReader<>(schema);
  }

  /** The records' schema. */
  public Schema schema() {
    return schema;
  }

  @Override
  public void write(GenericRecord value, DataOutput out) throws IOException {
    if (out instanceof ByteSink sink) {
      // Reserve the length, encode straight into the sink, then fill the length in.
      int at = sink.size();
      sink.writeInt(0);
      encodeTo(sink, value);
      sink.putIntAt(at, sink.size() - at - 4);
      return;
    }
    scratch.reset();
    encodeTo(scratch, value);
    out.writeInt(scratch.size());
    out.write(scratch.array(), 0, scratch.size());
  }

  private void encodeTo(ByteSink sink, GenericRecord value) throws IOException {
    encoder = EncoderFactory.get().directBinaryEncoder(sink, encoder);
    writer.write(value, encoder);
  }

  @Override
  public GenericRecord read(DataInput in) throws IOException {
    int length = in.readInt();
    if (in instanceof ByteSource src) {
      int at = src.position();
      src.advance(length);
      return decode(src.array(), at, length);
    }
    if (readScratch.length < length) {
      readScratch = new byte[Math.max(length, readScratch.length * 2)];
    }
    in.readFully(readScratch, 0, length);
    return decode(readScratch, 0, length);
  }

  private GenericRecord decode(byte[] bytes, int offset, int length) throws IOException {
    decoder = DecoderFactory.get().binaryDecoder(bytes, offset, length, decoder);
    return reader.read(null, decoder);
  }

  @Override
  public long estimateSize(GenericRecord value) {
    if (value == null) {
      return 0;
    }
    long n = calls++;
    if (n < WARMUP) {
      long size = AvroHeapSize.of(schema, value);
      average += (size - average) / (n + 1);
      return size;
    }
    if (n % SAMPLE_EVERY == 0) {
      average += (AvroHeapSize.of(schema, value) - average) / WARMUP;
    }
    return (long) Math.ceil(average);
  }
}
