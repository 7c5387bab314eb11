package dev.sluice.sql;

import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;

/**
 * The rows of a Sluice scan as an Arrow stream, a batch at a time, for DuckDB's Arrow scan (through the C stream
 * interface) and for Arrow IPC files. Column types follow the Avro schema: booleans, 32/64-bit integers, floats,
 * doubles, strings, bytes, decimals, dates and timestamps (millis and micros, as microseconds without a zone, the
 * way Hudi stores UTC instants) map to the Arrow type of the same meaning; nested values (records, arrays, maps)
 * become their JSON text, so a query can still see them (DuckDB's {@code json} functions read it).
 *
 * <p>The first exception the scan throws is kept ({@link #failure()}): DuckDB turns it into an error message, and the
 * caller rethrows the original so a storage error stays a storage error, not "bad SQL".
 */
final class ArrowRows extends ArrowReader {
  private final CloseableIterator<GenericRecord> rows;
  private final Schema avro;
  private final int batchSize;
  private final List<Column> columns = new ArrayList<>();
  private long rowsRead;
  /** Set by the first {@link #close(boolean)}, the only caller of {@link #closeReadSource()}. */
  private boolean closed;
  private RuntimeException failure;

  ArrowRows(BufferAllocator allocator, Schema avro, CloseableIterator<GenericRecord> rows, int batchSize) {
    super(allocator);
    this.avro = avro;
    this.rows = rows;
    this.batchSize = batchSize;
  }

  /** The Arrow schema a scan of {@code avro} produces. */
  static org.apache.arrow.vector.types.pojo.Schema arrowSchema(Schema avro) {
    List<Field> fields = new ArrayList<>();
    for (Schema.Field f : avro.getFields()) {
      fields.add(new Field(f.name(), FieldType.nullable(arrowType(nonNull(f.schema()))), null));
    }
    return new org.apache.arrow.vector.types.pojo.Schema(fields);
  }

  /** The first exception the scan threw, if any. */
  Optional<RuntimeException> failure() {
    return Optional.ofNullable(failure);
  }

  /**
   * Loads the next batch; none once the reader is closed. Synchronized with {@link #close(boolean)}: DuckDB pulls
   * batches and releases the exported stream (which closes this reader) on its own threads.
   */
  @Override
  public synchronized boolean loadNextBatch() throws IOException {
    if (closed) {
      return false;
    }
    VectorSchemaRoot root = getVectorSchemaRoot();
    if (columns.isEmpty()) {
      List<Schema.Field> fields = avro.getFields();
      for (int i = 0; i < fields.size(); i++) {
        columns.add(new Column(fields.get(i).pos(), nonNull(fields.get(i).schema()), root.getVector(i)));
      }
    }
    // fresh buffers for each batch: the consumer may still hold the previous one (it was exported, not copied)
    for (Column c : columns) {
      c.vector.allocateNew();
    }
    int n = 0;
    // DuckDB pulls batches on its own native threads, attached to the JVM without a context class loader; the
    // readers below (snappy's native loader among them) look resources up through it
    Thread thread = Thread.currentThread();
    boolean noLoader = thread.getContextClassLoader() == null;
    if (noLoader) {
      thread.setContextClassLoader(ArrowRows.class.getClassLoader());
    }
    try {
      while (n < batchSize && rows.hasNext()) {
        GenericRecord r = rows.next();
        for (Column c : columns) {
          c.set(n, r.get(c.pos));
        }
        n++;
      }
    } catch (RuntimeException e) {
      failure = e;
      throw e;
    } finally {
      if (noLoader) {
        thread.setContextClassLoader(null);
      }
    }
    for (Column c : columns) {
      c.vector.setValueCount(n);
    }
    root.setRowCount(n);
    rowsRead += n;
    return n > 0;
  }

  @Override
  public long bytesRead() {
    return rowsRead;
  }

  /**
   * Closes the batch's vectors and the scan, once. Two parties close this reader: DuckDB, whose release of the
   * exported stream closes it on DuckDB's own thread when it drops the stream, and the caller after the statement.
   * Unsynchronized, the two could release the same vector buffers at once (Arrow's "RefCnt has gone negative").
   */
  @Override
  public synchronized void close(boolean closeReadSource) throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    super.close(closeReadSource);
  }

  @Override
  protected void closeReadSource() {
    rows.close();
  }

  @Override
  protected org.apache.arrow.vector.types.pojo.Schema readSchema() {
    return arrowSchema(avro);
  }

  static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    List<Schema> branches = s.getTypes().stream().filter(b -> b.getType() != Schema.Type.NULL).toList();
    // a union of several non-null branches has no one Arrow type: its values go as text
    return branches.size() == 1 ? branches.get(0) : Schema.create(Schema.Type.STRING);
  }

  private static ArrowType arrowType(Schema s) {
    LogicalType lt = s.getLogicalType();
    if (lt instanceof LogicalTypes.Decimal d) {
      return new ArrowType.Decimal(d.getPrecision(), d.getScale(), 128);
    }
    if (lt instanceof LogicalTypes.Date) {
      return new ArrowType.Date(DateUnit.DAY);
    }
    if (isTimestamp(lt)) {
      return new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
    }
    return switch (s.getType()) {
      case BOOLEAN -> ArrowType.Bool.INSTANCE;
      case INT -> new ArrowType.Int(32, true);
      case LONG -> new ArrowType.Int(64, true);
      case FLOAT -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case BYTES, FIXED -> ArrowType.Binary.INSTANCE;
      default -> ArrowType.Utf8.INSTANCE;
    };
  }

  private static boolean isTimestamp(LogicalType lt) {
    return lt instanceof LogicalTypes.TimestampMillis || lt instanceof LogicalTypes.TimestampMicros
        || lt instanceof LogicalTypes.LocalTimestampMillis || lt instanceof LogicalTypes.LocalTimestampMicros;
  }

  /** One column: its position in the records, its Avro type and the vector it fills. */
  private static final class Column {
    final int pos;
    final FieldVector vector;
    final boolean millis;

    Column(int pos, Schema schema, FieldVector vector) {
      this.pos = pos;
      this.vector = vector;
      LogicalType lt = schema.getLogicalType();
      this.millis = lt instanceof LogicalTypes.TimestampMillis || lt instanceof LogicalTypes.LocalTimestampMillis;
    }

    void set(int i, Object v) {
      if (v == null) {
        vector.setNull(i);
        return;
      }
      if (vector instanceof BitVector x) {
        x.setSafe(i, ((Boolean) v) ? 1 : 0);
      } else if (vector instanceof IntVector x) {
        x.setSafe(i, ((Number) v).intValue());
      } else if (vector instanceof BigIntVector x) {
        x.setSafe(i, ((Number) v).longValue());
      } else if (vector instanceof Float4Vector x) {
        x.setSafe(i, ((Number) v).floatValue());
      } else if (vector instanceof Float8Vector x) {
        x.setSafe(i, ((Number) v).doubleValue());
      } else if (vector instanceof DateDayVector x) {
        x.setSafe(i, v instanceof LocalDate d ? (int) d.toEpochDay() : ((Number) v).intValue());
      } else if (vector instanceof TimeStampMicroVector x) {
        x.setSafe(i, micros(v));
      } else if (vector instanceof DecimalVector x) {
        x.setSafe(i, decimal(v, x.getScale()));
      } else if (vector instanceof VarBinaryVector x) {
        x.setSafe(i, bytes(v));
      } else if (vector instanceof VarCharVector x) {
        if (v instanceof Utf8 u) {
          x.setSafe(i, u.getBytes(), 0, u.getByteLength());
        } else {
          byte[] b = (v instanceof CharSequence ? v.toString() : GenericData.get().toString(v))
              .getBytes(StandardCharsets.UTF_8);
          x.setSafe(i, b, 0, b.length);
        }
      } else {
        throw new IllegalStateException("no writer for " + vector.getClass().getSimpleName());
      }
    }

    private long micros(Object v) {
      if (v instanceof Instant t) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, t);
      }
      if (v instanceof LocalDateTime t) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, t.toInstant(ZoneOffset.UTC));
      }
      long n = ((Number) v).longValue();
      return millis ? Math.multiplyExact(n, 1000L) : n;
    }

    private BigDecimal decimal(Object v, int scale) {
      if (v instanceof BigDecimal d) {
        return d.setScale(scale, RoundingMode.UNNECESSARY);
      }
      byte[] b = bytes(v);
      return new BigDecimal(new java.math.BigInteger(b), scale);
    }

    private static byte[] bytes(Object v) {
      if (v instanceof ByteBuffer bb) {
        ByteBuffer d = bb.duplicate();
        byte[] b = new byte[d.remaining()];
        d.get(b);
        return b;
      }
      if (v instanceof GenericFixed f) {
        return f.bytes();
      }
      return (byte[]) v;
    }
  }
}
