package dev.sluice.tools.records;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;

/**
 * Exact conversions between {@link BigDecimal} and Avro's decimal encodings: two's-complement big-endian
 * unscaled bytes (in {@code bytes} or sign-extended {@code fixed}), and Avro 1.12's {@code big-decimal}.
 */
final class Decimals {
  private static final Conversions.BigDecimalConversion BIG_DECIMAL = new Conversions.BigDecimalConversion();

  private Decimals() {
  }

  /**
   * Brings {@code value} to the decimal type's scale without losing digits and checks its precision.
   *
   * @return the unscaled value
   * @throws FieldError when digits would be lost or the value has too many digits
   */
  static BigInteger fit(BigDecimal value, LogicalTypes.Decimal type, String shown) {
    if (value.signum() == 0) {
      return BigInteger.ZERO;
    }
    int whole = type.getPrecision() - type.getScale();
    // Checked on precision and scale first: rescaling a value like 1e999999999 would build a huge number.
    if (value.precision() - value.scale() > whole) {
      throw new FieldError(shown + " has more than " + whole + (whole == 1 ? " digit" : " digits") + " before the decimal point",
          Describe.decimal(type));
    }
    BigDecimal v = value;
    if (v.scale() > type.getScale()) {
      v = v.stripTrailingZeros();
      if (v.scale() > type.getScale()) {
        throw new FieldError(shown + " has more than " + type.getScale() + " decimal places", Describe.decimal(type));
      }
    }
    return v.setScale(type.getScale(), RoundingMode.UNNECESSARY).unscaledValue();
  }

  /** Encodes a value already fitted to {@code schema}'s decimal type in its physical type (bytes or fixed). */
  static Object encode(BigInteger unscaled, Schema schema, String shown) {
    byte[] bytes = unscaled.toByteArray();
    if (schema.getType() == Schema.Type.BYTES) {
      return ByteBuffer.wrap(bytes);
    }
    int size = schema.getFixedSize();
    if (bytes.length > size) {
      throw new FieldError(shown + " does not fit in " + size + " bytes", Describe.expected(schema));
    }
    byte[] out = new byte[size];
    byte fill = unscaled.signum() < 0 ? (byte) 0xFF : 0;
    int pad = size - bytes.length;
    for (int i = 0; i < pad; i++) {
      out[i] = fill;
    }
    System.arraycopy(bytes, 0, out, pad, bytes.length);
    return new GenericData.Fixed(schema, out);
  }

  /** Decodes a decimal held as bytes ({@link ByteBuffer} or byte[]) or fixed. */
  static BigDecimal decode(Object value, int scale) {
    return new BigDecimal(new BigInteger(bytesOf(value)), scale);
  }

  /** The bytes of a {@link ByteBuffer}, byte[] or {@link GenericFixed} value, without moving the buffer. */
  static byte[] bytesOf(Object value) {
    if (value instanceof ByteBuffer) {
      ByteBuffer buf = ((ByteBuffer) value).duplicate();
      byte[] out = new byte[buf.remaining()];
      buf.get(out);
      return out;
    }
    if (value instanceof GenericFixed) {
      return ((GenericFixed) value).bytes();
    }
    if (value instanceof byte[]) {
      return (byte[]) value;
    }
    throw new ClassCastException("not bytes: " + value.getClass().getName());
  }

  /** Encodes a {@code big-decimal} value (any scale) as Avro 1.12 does. */
  static ByteBuffer encodeBig(BigDecimal value) {
    return BIG_DECIMAL.toBytes(value, null, LogicalTypes.bigDecimal());
  }

  /** Decodes a {@code big-decimal} value. */
  static BigDecimal decodeBig(ByteBuffer value) {
    return BIG_DECIMAL.fromBytes(value.duplicate(), null, LogicalTypes.bigDecimal());
  }
}
