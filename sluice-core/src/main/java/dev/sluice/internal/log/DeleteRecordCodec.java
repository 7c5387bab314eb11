package dev.sluice.internal.log;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;

/**
 * Avro binary encoding of a delete block's key list, the datum {@code HoodieDeleteRecordList} (schema in the
 * resource {@code DeleteRecordList.avsc}). The encoder and decoder walk the schema by hand, which gives the same
 * bytes as Avro's generic writer for that schema without building a record per key.
 */
final class DeleteRecordCodec {
  // union branches of orderingVal, in schema order
  static final int NULL = 0;
  static final int BOOLEAN = 1;
  static final int INT = 2;
  static final int LONG = 3;
  static final int FLOAT = 4;
  static final int DOUBLE = 5;
  static final int BYTES = 6;
  static final int STRING = 7;
  static final int DATE = 8;
  static final int DECIMAL = 9;
  static final int TIME_MICROS = 10;
  static final int TIMESTAMP_MICROS = 11;
  /** Hudi 1.1: one value per ordering field ({@code ArrayWrapper}); read as a list. */
  static final int ARRAY = 12;
  /** Inside an {@code ArrayWrapper} only: a {@code LocalDateWrapper}, read as a date. */
  static final int LOCAL_DATE = 12;
  /** Decimal wrapper precision and scale. */
  static final int DECIMAL_PRECISION = 30;
  static final int DECIMAL_SCALE = 15;

  private static final Schema SCHEMA = loadSchema();

  private DeleteRecordCodec() {
  }

  /** The {@code HoodieDeleteRecordList} schema. */
  static Schema schema() {
    return SCHEMA;
  }

  private static Schema loadSchema() {
    try (InputStream in = DeleteRecordCodec.class.getResourceAsStream("DeleteRecordList.avsc")) {
      if (in == null) {
        throw new IllegalStateException("resource DeleteRecordList.avsc is missing from the classpath");
      }
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes the datum for {@code deletes}. */
  static void encode(List<DeleteRecord> deletes, BinaryEncoder out) throws IOException {
    out.writeArrayStart();
    out.setItemCount(deletes.size());
    for (DeleteRecord d : deletes) {
      out.startItem();
      writeNullableString(d.recordKey(), out);
      writeNullableString(d.partitionPath(), out);
      writeOrdering(d.orderingValue(), out);
    }
    out.writeArrayEnd();
  }

  private static void writeNullableString(String s, BinaryEncoder out) throws IOException {
    if (s == null) {
      out.writeIndex(0);
    } else {
      out.writeIndex(1);
      out.writeString(s);
    }
  }

  private static void writeOrdering(Object v, BinaryEncoder out) throws IOException {
    if (v instanceof List<?> values) {
      out.writeIndex(ARRAY);
      out.writeIndex(1);
      out.writeArrayStart();
      out.setItemCount(values.size());
      for (Object e : values) {
        out.startItem();
        writeOrdering(e, out);
      }
      out.writeArrayEnd();
      return;
    }
    if (v == null) {
      out.writeIndex(NULL);
    } else if (v instanceof Boolean b) {
      out.writeIndex(BOOLEAN);
      out.writeBoolean(b);
    } else if (v instanceof Integer i) {
      out.writeIndex(INT);
      out.writeInt(i);
    } else if (v instanceof Long l) {
      out.writeIndex(LONG);
      out.writeLong(l);
    } else if (v instanceof Float f) {
      out.writeIndex(FLOAT);
      out.writeFloat(f);
    } else if (v instanceof Double d) {
      out.writeIndex(DOUBLE);
      out.writeDouble(d);
    } else if (v instanceof ByteBuffer bb) {
      out.writeIndex(BYTES);
      out.writeBytes(bb.duplicate());
    } else if (v instanceof String s) {
      out.writeIndex(STRING);
      out.writeString(s);
    } else if (v instanceof LocalDate date) {
      out.writeIndex(DATE);
      out.writeInt(Math.toIntExact(date.toEpochDay()));
    } else if (v instanceof BigDecimal dec) {
      out.writeIndex(DECIMAL);
      out.writeBytes(decimalBytes(dec));
    } else if (v instanceof LocalTime t) {
      out.writeIndex(TIME_MICROS);
      out.writeLong(t.toNanoOfDay() / 1000);
    } else if (v instanceof Instant ts) {
      out.writeIndex(TIMESTAMP_MICROS);
      out.writeLong(Math.addExact(Math.multiplyExact(ts.getEpochSecond(), 1_000_000L), ts.getNano() / 1000));
    } else {
      // DeleteRecord's constructor admits only the types above
      throw new IllegalArgumentException("unsupported ordering value type " + v.getClass().getName());
    }
  }

  /** The unscaled two's-complement bytes of {@code dec} at scale 15, as the decimal logical type stores it. */
  static byte[] decimalBytes(BigDecimal dec) {
    BigDecimal scaled;
    try {
      // Hudi raises the scale to the wrapper's when that loses nothing, and refuses otherwise
      scaled = dec.setScale(DECIMAL_SCALE, RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("decimal ordering value " + dec + " does not fit scale " + DECIMAL_SCALE, e);
    }
    if (scaled.precision() > DECIMAL_PRECISION) {
      throw new IllegalArgumentException("decimal ordering value " + dec + " exceeds precision " + DECIMAL_PRECISION);
    }
    return scaled.unscaledValue().toByteArray();
  }

  /** Reads the datum's keys one at a time from {@code in}. */
  static final class Decoding {
    private final BinaryDecoder in;
    private long leftInRun;
    private boolean started;
    private boolean done;

    Decoding(BinaryDecoder in) {
      this.in = in;
    }

    /** True if another key follows; reads the array's next run header when needed. */
    boolean hasNext() throws IOException {
      if (done) {
        return false;
      }
      if (leftInRun == 0) {
        leftInRun = started ? in.arrayNext() : in.readArrayStart();
        started = true;
        if (leftInRun == 0) {
          done = true;
          return false;
        }
      }
      return true;
    }

    /** Decodes the next key; call after {@link #hasNext()}. */
    DeleteRecord next() throws IOException {
      leftInRun--;
      String key = readNullableString();
      String partition = readNullableString();
      return new DeleteRecord(key, partition, readOrdering());
    }

    private String readNullableString() throws IOException {
      int branch = in.readIndex();
      return switch (branch) {
        case 0 -> null;
        case 1 -> in.readString();
        default -> throw new DamagedContentException("union branch " + branch + " of a nullable string");
      };
    }

    private Object readOrdering() throws IOException {
      int branch = in.readIndex();
      if (branch == ARRAY) {
        return readArray();
      }
      return value(branch, false);
    }

    /** An {@code ArrayWrapper}: null, or the list of its wrapped values (a null element stays null). */
    private Object readArray() throws IOException {
      int present = in.readIndex();
      if (present == 0) {
        return null;
      }
      if (present != 1) {
        throw new DamagedContentException("union branch " + present + " of an ArrayWrapper's values");
      }
      List<Object> values = new java.util.ArrayList<>();
      for (long n = in.readArrayStart(); n > 0; n = in.arrayNext()) {
        for (long i = 0; i < n; i++) {
          values.add(value(in.readIndex(), true));
        }
      }
      return java.util.Collections.unmodifiableList(values);
    }

    private Object value(int branch, boolean inArray) throws IOException {
      if (inArray && branch == LOCAL_DATE) {
        return LocalDate.ofEpochDay(in.readInt());
      }
      return switch (branch) {
        case NULL -> null;
        case BOOLEAN -> in.readBoolean();
        case INT -> in.readInt();
        case LONG -> in.readLong();
        case FLOAT -> in.readFloat();
        case DOUBLE -> in.readDouble();
        case BYTES -> in.readBytes(null);
        case STRING -> in.readString();
        case DATE -> LocalDate.ofEpochDay(in.readInt());
        case DECIMAL -> {
          ByteBuffer bb = in.readBytes(null);
          byte[] raw = new byte[bb.remaining()];
          bb.get(raw);
          yield raw.length == 0 ? BigDecimal.ZERO.setScale(DECIMAL_SCALE) : new BigDecimal(new BigInteger(raw), DECIMAL_SCALE);
        }
        case TIME_MICROS -> LocalTime.ofNanoOfDay(Math.multiplyExact(in.readLong(), 1000L));
        case TIMESTAMP_MICROS -> {
          long micros = in.readLong();
          yield Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
        }
        default -> throw new DamagedContentException("union branch " + branch + " of the ordering value (expected 0 to 12)");
      };
    }
  }
}
