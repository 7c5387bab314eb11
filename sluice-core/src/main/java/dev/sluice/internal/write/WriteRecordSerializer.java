package dev.sluice.internal.write;

import dev.sluice.internal.key.FieldPath;
import dev.sluice.internal.merge.Ordering;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.spill.AvroRecordSerializer;
import dev.sluice.internal.spill.RecordSerializer;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * {@link WriteRecord}s as bytes for the spilling write path: key, partition path, delete kind and the record in the
 * table's user schema (absent for a key-only delete). The ordering value is not stored: it is read again from the
 * record's precombine field, as {@link BatchPreparer} computed it, so no type of ordering value needs its own
 * encoding. Not thread-safe (the Avro serializer reuses buffers).
 */
final class WriteRecordSerializer implements RecordSerializer<WriteRecord> {
  /** The record object, its two strings' headers and the boxed ordering value. */
  private static final long OVERHEAD = 32 + 2 * 40 + 24;
  private static final RecordSerializer<String> STRING = RecordSerializer.string();
  private static final WriteRecord.DeleteKind[] KINDS = WriteRecord.DeleteKind.values();

  private final RecordSerializer<GenericRecord> data;
  private final Optional<FieldPath> ordering;

  WriteRecordSerializer(Schema userSchema, Optional<String> precombineField) {
    this.data = new AvroRecordSerializer(userSchema).nullable();
    this.ordering = precombineField.map(f -> FieldPath.resolve(userSchema, f, "precombine"));
  }

  @Override
  public void write(WriteRecord value, DataOutput out) throws IOException {
    STRING.write(value.key(), out);
    STRING.write(value.partitionPath(), out);
    out.writeByte(value.delete().ordinal());
    data.write(value.data(), out);
  }

  @Override
  public WriteRecord read(DataInput in) throws IOException {
    String key = STRING.read(in);
    String partition = STRING.read(in);
    WriteRecord.DeleteKind kind = KINDS[in.readByte()];
    GenericRecord record = data.read(in);
    @SuppressWarnings("rawtypes")
    Comparable ord = record == null || ordering.isEmpty() ? Ordering.NATURAL
        : Ordering.normalize(ordering.get().get(record));
    return new WriteRecord(key, partition, record, ord, kind);
  }

  @Override
  public long estimateSize(WriteRecord value) {
    return OVERHEAD + 2L * (value.key().length() + value.partitionPath().length())
        + (value.data() == null ? 0 : data.estimateSize(value.data()));
  }
}
