package dev.sluice.internal.spill;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Writes values of one type to bytes and back, and estimates how much heap a value takes, for
 * {@link SpillableMap} and {@link ExternalSorter}. A serializer may keep reusable buffers, so an instance is not
 * thread-safe: give each map its own.
 *
 * <p>Serializers compose: {@link #string()}, {@link #int64()}, {@link #bytes()}, {@link #nullable()} and the
 * {@code of(...)} combinators build a serializer for a small value record field by field, e.g.
 * <pre>{@code
 * record Logged(String instant, long ordering, GenericRecord row) {}
 * RecordSerializer<Logged> s = RecordSerializer.of(
 *     RecordSerializer.field(Logged::instant, RecordSerializer.string()),
 *     RecordSerializer.field(Logged::ordering, RecordSerializer.int64()),
 *     RecordSerializer.field(Logged::row, new AvroRecordSerializer(schema).nullable()),
 *     Logged::new);
 * }</pre>
 *
 * @param <V> value type
 */
public interface RecordSerializer<V> {
  /** Writes {@code value}; {@link #read} must consume exactly these bytes. */
  void write(V value, DataOutput out) throws IOException;

  /** Reads one value written by {@link #write}. */
  V read(DataInput in) throws IOException;

  /**
   * Estimated heap bytes held by {@code value} (object headers, fields, arrays), used to keep a map within its
   * memory budget. Called on every in-memory put, so it must be cheap; an estimate, not a measurement.
   */
  long estimateSize(V value);

  /** Strings as a varint UTF-8 byte count and the bytes; estimates assume Latin-1 (compact) strings. */
  static RecordSerializer<String> string() {
    return Serializers.STRING;
  }

  /** Longs as eight big-endian bytes. */
  static RecordSerializer<Long> int64() {
    return Serializers.INT64;
  }

  /** Byte arrays as a varint length and the bytes. */
  static RecordSerializer<byte[]> bytes() {
    return Serializers.BYTES;
  }

  /** This serializer accepting {@code null}: one presence byte, then the value if present. */
  default RecordSerializer<V> nullable() {
    return new Serializers.Nullable<>(this);
  }

  /** A serializer of {@code W} that converts to and from {@code V} around this one. */
  default <W> RecordSerializer<W> map(Function<? super W, ? extends V> to, Function<? super V, ? extends W> from) {
    return new Serializers.Mapped<>(this, to, from);
  }

  /** One field of a composite value: how to get it from the value, and how to serialize it. */
  static <V, A> Field<V, A> field(Function<? super V, ? extends A> getter, RecordSerializer<A> serializer) {
    return new Field<>(getter, serializer);
  }

  /** A value of two fields, written in order. */
  static <V, A, B> RecordSerializer<V> of(Field<V, A> a, Field<V, B> b, BiFunction<A, B, V> make) {
    return new Serializers.Composite<V>(List.of(a, b), parts -> make.apply(cast(parts[0]), cast(parts[1])));
  }

  /** A value of three fields, written in order. */
  static <V, A, B, C> RecordSerializer<V> of(Field<V, A> a, Field<V, B> b, Field<V, C> c, Make3<A, B, C, V> make) {
    return new Serializers.Composite<V>(List.of(a, b, c),
        parts -> make.make(cast(parts[0]), cast(parts[1]), cast(parts[2])));
  }

  /** A value of four fields, written in order. */
  static <V, A, B, C, D> RecordSerializer<V> of(Field<V, A> a, Field<V, B> b, Field<V, C> c, Field<V, D> d,
      Make4<A, B, C, D, V> make) {
    return new Serializers.Composite<V>(List.of(a, b, c, d),
        parts -> make.make(cast(parts[0]), cast(parts[1]), cast(parts[2]), cast(parts[3])));
  }

  @SuppressWarnings("unchecked")
  private static <T> T cast(Object o) {
    return (T) o;
  }

  /**
   * A field of a composite value.
   *
   * @param getter reads the field from the value
   * @param serializer serializes the field
   * @param <V> the composite value type
   * @param <A> the field type
   */
  record Field<V, A>(Function<? super V, ? extends A> getter, RecordSerializer<A> serializer) {
    /** Validates the parts. */
    public Field {
      Objects.requireNonNull(getter, "getter");
      Objects.requireNonNull(serializer, "serializer");
    }

    void writeFrom(V value, DataOutput out) throws IOException {
      serializer.write(getter.apply(value), out);
    }

    long estimateFrom(V value) {
      return serializer.estimateSize(getter.apply(value));
    }
  }

  /** Builds a value from three fields. */
  @FunctionalInterface
  interface Make3<A, B, C, V> {
    /** The value of these fields. */
    V make(A a, B b, C c);
  }

  /** Builds a value from four fields. */
  @FunctionalInterface
  interface Make4<A, B, C, D, V> {
    /** The value of these fields. */
    V make(A a, B b, C c, D d);
  }
}
