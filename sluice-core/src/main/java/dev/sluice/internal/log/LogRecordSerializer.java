package dev.sluice.internal.log;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.merge.Ordering;
import dev.sluice.internal.spill.AvroRecordSerializer;
import dev.sluice.internal.spill.RecordSerializer;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Writes a {@link LogRecord} for a spill file: key, partition, flags, then either the record (Avro binary of the
 * reader schema; its ordering value is derived from it again on reading, as the scanner derived it) or, for a
 * delete, its ordering value tagged with its type (the types a delete block can carry).
 */
final class LogRecordSerializer implements RecordSerializer<LogRecord> {
  private static final int HAS_RECORD = 1;
  private static final int HARD_DELETE = 2;
  private static final int HAS_PARTITION = 4;
  private static final int PARTIAL = 8;
  /** Object headers and fields of a LogRecord and its key/partition strings, roughly. */
  private static final long FIXED_HEAP = 96;

  private static final byte NULL = 0;
  private static final byte BOOLEAN = 1;
  private static final byte INT = 2;
  private static final byte LONG = 3;
  private static final byte FLOAT = 4;
  private static final byte DOUBLE = 5;
  private static final byte STRING = 6;
  private static final byte BYTES = 7;
  private static final byte DATE = 8;
  private static final byte DECIMAL = 9;
  private static final byte TIMESTAMP = 10;

  private final AvroRecordSerializer records;
  private final RecordSerializer<String> strings = RecordSerializer.string();
  private final Optional<String> precombineField;

  LogRecordSerializer(Schema readerSchema, Optional<String> precombineField) {
    this.records = new AvroRecordSerializer(readerSchema);
    this.precombineField = precombineField;
  }

  @Override
  public void write(LogRecord r, DataOutput out) throws IOException {
    int flags = (r.record() != null ? HAS_RECORD : 0) | (r.hardDelete() ? HARD_DELETE : 0)
        | (r.partitionPath() != null ? HAS_PARTITION : 0) | (r.partialColumns().isPresent() ? PARTIAL : 0);
    out.writeByte(flags);
    strings.write(r.key(), out);
    if (r.partitionPath() != null) {
      strings.write(r.partitionPath(), out);
    }
    if (r.record() != null) {
      records.write(r.record(), out);
      if (r.partialColumns().isPresent()) {
        out.writeInt(r.partialColumns().get().size());
        for (String c : r.partialColumns().get()) {
          strings.write(c, out);
        }
      }
    } else {
      writeOrdering(r.ordering(), out);
    }
  }

  @Override
  public LogRecord read(DataInput in) throws IOException {
    int flags = in.readByte();
    String key = strings.read(in);
    String partition = (flags & HAS_PARTITION) != 0 ? strings.read(in) : null;
    if ((flags & HAS_RECORD) != 0) {
      GenericRecord record = records.read(in);
      Optional<Set<String>> partial = Optional.empty();
      if ((flags & PARTIAL) != 0) {
        int n = in.readInt();
        Set<String> columns = new HashSet<>();
        for (int i = 0; i < n; i++) {
          columns.add(strings.read(in));
        }
        partial = Optional.of(Set.copyOf(columns));
      }
      return new LogRecord(key, partition, record, Ordering.normalize(rawOrdering(record)), (flags & HARD_DELETE) != 0,
          partial);
    }
    return new LogRecord(key, partition, null, readOrdering(in), (flags & HARD_DELETE) != 0);
  }

  @Override
  public long estimateSize(LogRecord r) {
    long strings = 2L * r.key().length() + (r.partitionPath() == null ? 0 : r.partitionPath().length());
    return FIXED_HEAP + strings + (r.record() == null ? 32 : records.estimateSize(r.record()));
  }

  /** The ordering value as the scanner takes it from a record: the precombine field's raw value, or 0. */
  private Object rawOrdering(GenericRecord r) {
    if (precombineField.isEmpty()) {
      return Ordering.NATURAL;
    }
    Schema.Field f = r.getSchema().getField(precombineField.get());
    return f == null ? Ordering.NATURAL : r.get(f.pos());
  }

  private static void writeOrdering(Object v, DataOutput out) throws IOException {
    if (v == null) {
      out.writeByte(NULL);
    } else if (v instanceof Boolean b) {
      out.writeByte(BOOLEAN);
      out.writeBoolean(b);
    } else if (v instanceof Integer i) {
      out.writeByte(INT);
      out.writeInt(i);
    } else if (v instanceof Long l) {
      out.writeByte(LONG);
      out.writeLong(l);
    } else if (v instanceof Float f) {
      out.writeByte(FLOAT);
      out.writeFloat(f);
    } else if (v instanceof Double d) {
      out.writeByte(DOUBLE);
      out.writeDouble(d);
    } else if (v instanceof String s) {
      out.writeByte(STRING);
      RecordSerializer.string().write(s, out);
    } else if (v instanceof ByteBuffer bb) {
      out.writeByte(BYTES);
      byte[] bytes = new byte[bb.remaining()];
      bb.duplicate().get(bytes);
      RecordSerializer.bytes().write(bytes, out);
    } else if (v instanceof LocalDate d) {
      out.writeByte(DATE);
      out.writeLong(d.toEpochDay());
    } else if (v instanceof BigDecimal d) {
      out.writeByte(DECIMAL);
      out.writeInt(d.scale());
      RecordSerializer.bytes().write(d.unscaledValue().toByteArray(), out);
    } else if (v instanceof Instant t) {
      out.writeByte(TIMESTAMP);
      out.writeLong(t.getEpochSecond());
      out.writeInt(t.getNano());
    } else {
      throw Errors.internal("a delete's ordering value of type " + v.getClass().getName() + " cannot be spilled", null);
    }
  }

  private static Comparable<?> readOrdering(DataInput in) throws IOException {
    byte tag = in.readByte();
    return switch (tag) {
      case NULL -> null;
      case BOOLEAN -> in.readBoolean();
      case INT -> in.readInt();
      case LONG -> in.readLong();
      case FLOAT -> in.readFloat();
      case DOUBLE -> in.readDouble();
      case STRING -> RecordSerializer.string().read(in);
      case BYTES -> ByteBuffer.wrap(RecordSerializer.bytes().read(in));
      case DATE -> LocalDate.ofEpochDay(in.readLong());
      case DECIMAL -> {
        int scale = in.readInt();
        yield new BigDecimal(new BigInteger(RecordSerializer.bytes().read(in)), scale);
      }
      case TIMESTAMP -> Instant.ofEpochSecond(in.readLong(), in.readInt());
      default -> throw Errors.internal("unknown ordering tag " + tag + " in a spill file", null);
    };
  }
}
