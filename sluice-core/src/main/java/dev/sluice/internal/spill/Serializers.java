package dev.sluice.internal.spill;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

/** The building-block serializers behind {@link RecordSerializer}'s factories. */
final class Serializers {
  static final RecordSerializer<String> STRING = new StringSerializer();
  static final RecordSerializer<Long> INT64 = new Int64Serializer();
  static final RecordSerializer<byte[]> BYTES = new BytesSerializer();

  private Serializers() {
  }

  /** Rounds up to the JVM's 8-byte object alignment. */
  static long align(long bytes) {
    return (bytes + 7) & ~7L;
  }

  /** Heap bytes of a String of {@code chars} Latin-1 characters: the object and its byte array. */
  static long stringHeap(int chars) {
    return 24 + align(16L + chars);
  }

  static void writeVarInt(DataOutput out, int v) throws IOException {
    while ((v & ~0x7F) != 0) {
      out.writeByte((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.writeByte(v);
  }

  static int readVarInt(DataInput in) throws IOException {
    int result = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int b = in.readUnsignedByte();
      result |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new IOException("Malformed varint");
  }

  private static final class StringSerializer implements RecordSerializer<String> {
    @Override
    public void write(String value, DataOutput out) throws IOException {
      byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
      writeVarInt(out, bytes.length);
      out.write(bytes);
    }

    @Override
    public String read(DataInput in) throws IOException {
      int n = readVarInt(in);
      if (in instanceof ByteSource src) {
        // Decode in place: no intermediate copy.
        int at = src.position();
        src.advance(n);
        return new String(src.array(), at, n, StandardCharsets.UTF_8);
      }
      byte[] bytes = new byte[n];
      in.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public long estimateSize(String value) {
      return value == null ? 0 : stringHeap(value.length());
    }
  }

  private static final class Int64Serializer implements RecordSerializer<Long> {
    @Override
    public void write(Long value, DataOutput out) throws IOException {
      out.writeLong(value);
    }

    @Override
    public Long read(DataInput in) throws IOException {
      return in.readLong();
    }

    @Override
    public long estimateSize(Long value) {
      return value == null ? 0 : 24;
    }
  }

  private static final class BytesSerializer implements RecordSerializer<byte[]> {
    @Override
    public void write(byte[] value, DataOutput out) throws IOException {
      writeVarInt(out, value.length);
      out.write(value);
    }

    @Override
    public byte[] read(DataInput in) throws IOException {
      byte[] bytes = new byte[readVarInt(in)];
      in.readFully(bytes);
      return bytes;
    }

    @Override
    public long estimateSize(byte[] value) {
      return value == null ? 0 : align(16L + value.length);
    }
  }

  /** A presence byte, then the value. */
  static final class Nullable<V> implements RecordSerializer<V> {
    private final RecordSerializer<V> inner;

    Nullable(RecordSerializer<V> inner) {
      this.inner = inner;
    }

    @Override
    public void write(V value, DataOutput out) throws IOException {
      out.writeBoolean(value != null);
      if (value != null) {
        inner.write(value, out);
      }
    }

    @Override
    public V read(DataInput in) throws IOException {
      return in.readBoolean() ? inner.read(in) : null;
    }

    @Override
    public long estimateSize(V value) {
      return value == null ? 0 : inner.estimateSize(value);
    }

    @Override
    public RecordSerializer<V> nullable() {
      return this;
    }
  }

  /** Converts around another serializer. */
  static final class Mapped<W, V> implements RecordSerializer<W> {
    private final RecordSerializer<V> inner;
    private final Function<? super W, ? extends V> to;
    private final Function<? super V, ? extends W> from;

    Mapped(RecordSerializer<V> inner, Function<? super W, ? extends V> to, Function<? super V, ? extends W> from) {
      this.inner = inner;
      this.to = to;
      this.from = from;
    }

    @Override
    public void write(W value, DataOutput out) throws IOException {
      inner.write(to.apply(value), out);
    }

    @Override
    public W read(DataInput in) throws IOException {
      return from.apply(inner.read(in));
    }

    @Override
    public long estimateSize(W value) {
      return value == null ? 0 : inner.estimateSize(to.apply(value));
    }
  }

  /** Fields written one after the other; the value is rebuilt from the parts read. */
  static final class Composite<V> implements RecordSerializer<V> {
    private final List<RecordSerializer.Field<V, ?>> fields;
    private final Function<Object[], V> make;
    private final long shellBytes;

    Composite(List<RecordSerializer.Field<V, ?>> fields, Function<Object[], V> make) {
      this.fields = fields;
      this.make = make;
      // The value object itself: header plus one reference or primitive slot per field.
      this.shellBytes = align(12L + 8L * fields.size());
    }

    @Override
    public void write(V value, DataOutput out) throws IOException {
      for (RecordSerializer.Field<V, ?> f : fields) {
        f.writeFrom(value, out);
      }
    }

    @Override
    public V read(DataInput in) throws IOException {
      Object[] parts = new Object[fields.size()];
      for (int i = 0; i < parts.length; i++) {
        parts[i] = fields.get(i).serializer().read(in);
      }
      return make.apply(parts);
    }

    @Override
    public long estimateSize(V value) {
      if (value == null) {
        return 0;
      }
      long total = shellBytes;
      for (RecordSerializer.Field<V, ?> f : fields) {
        total += f.estimateFrom(value);
      }
      return total;
    }
  }
}
