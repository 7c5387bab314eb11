package dev.sluice.tools.records;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;

/**
 * Converters between non-union, non-container types of a file and the table: Avro's promotions
 * (int→long→float→double, string↔bytes) plus logical-type-aware ones Avro's resolver lacks: time and
 * timestamp units are rescaled exactly (a millisecond file into a microsecond table), decimals are rescaled
 * without losing digits and checked against the table's precision, UUIDs are validated.
 */
final class ScalarResolver {
  /** The Julian day number of 1970-01-01. */
  private static final long JULIAN_EPOCH_DAY = 2_440_588L;

  private ScalarResolver() {
  }

  /**
   * The converter from {@code source} to {@code target}, or a {@link FieldError} explaining why there is none.
   */
  static Converter compile(Schema source, Schema target) {
    Object intDecimalScale = source.getObjectProp(ParquetIntDecimals.SCALE_PROP);
    if (intDecimalScale != null) {
      return fromIntDecimal(((Number) intDecimalScale).intValue(), source, target);
    }
    Converter logical = logical(source, target);
    if (logical != null) {
      return logical;
    }
    Schema.Type s = source.getType();
    switch (target.getType()) {
      case NULL:
        if (s == Schema.Type.NULL) {
          return v -> null;
        }
        break;
      case BOOLEAN:
        if (s == Schema.Type.BOOLEAN) {
          return v -> v;
        }
        break;
      case INT:
        if (s == Schema.Type.INT) {
          return v -> v;
        }
        break;
      case LONG:
        if (s == Schema.Type.LONG) {
          return v -> v;
        }
        if (s == Schema.Type.INT) {
          return v -> ((Number) v).longValue();
        }
        break;
      case FLOAT:
        if (s == Schema.Type.FLOAT) {
          return v -> v;
        }
        if (s == Schema.Type.INT || s == Schema.Type.LONG) {
          return v -> ((Number) v).floatValue();
        }
        break;
      case DOUBLE:
        if (s == Schema.Type.DOUBLE) {
          return v -> v;
        }
        if (s == Schema.Type.INT || s == Schema.Type.LONG || s == Schema.Type.FLOAT) {
          return v -> ((Number) v).doubleValue();
        }
        break;
      case STRING:
        if (s == Schema.Type.STRING || s == Schema.Type.ENUM) {
          return Object::toString;
        }
        if (s == Schema.Type.BYTES) {
          return v -> new String(Decimals.bytesOf(v), StandardCharsets.UTF_8);
        }
        break;
      case BYTES:
        if (s == Schema.Type.BYTES) {
          return v -> v instanceof ByteBuffer ? v : ByteBuffer.wrap(Decimals.bytesOf(v));
        }
        if (s == Schema.Type.STRING) {
          return v -> TextValues.utf8((CharSequence) v);
        }
        if (s == Schema.Type.FIXED) {
          return v -> ByteBuffer.wrap(((GenericFixed) v).bytes().clone());
        }
        break;
      case FIXED:
        if (s == Schema.Type.FIXED && source.getFixedSize() == target.getFixedSize() || s == Schema.Type.BYTES) {
          return v -> {
            byte[] bytes = Decimals.bytesOf(v);
            if (bytes.length != target.getFixedSize()) {
              throw new FieldError("has " + bytes.length + " bytes, not " + target.getFixedSize(), Describe.expected(target));
            }
            return new GenericData.Fixed(target, bytes.clone());
          };
        }
        break;
      case ENUM:
        if (s == Schema.Type.ENUM || s == Schema.Type.STRING) {
          return enumConverter(target);
        }
        break;
      default:
        break;
    }
    throw cannotRead(source, target);
  }

  static FieldError cannotRead(Schema source, Schema target) {
    return new FieldError("has type " + Describe.typeName(source) + " in the file, which cannot be read as "
        + Describe.typeName(target), "a file type that converts to " + Describe.typeName(target));
  }

  private static Converter enumConverter(Schema target) {
    Map<String, GenericData.EnumSymbol> symbols = new HashMap<>();
    for (String s : target.getEnumSymbols()) {
      symbols.put(s, new GenericData.EnumSymbol(target, s));
    }
    GenericData.EnumSymbol fallback = target.getEnumDefault() == null ? null : symbols.get(target.getEnumDefault());
    return v -> {
      GenericData.EnumSymbol symbol = symbols.get(v.toString());
      if (symbol != null) {
        return symbol;
      }
      if (fallback != null) {
        return fallback;
      }
      throw new FieldError(Describe.quote(v.toString()) + " is not a symbol of enum " + target.getName(),
          Describe.expected(target));
    };
  }

  /** A converter when the target (or the source) has a logical type that changes the rules; else null. */
  private static Converter logical(Schema source, Schema target) {
    String tl = Schemas.logicalName(target);
    String sl = Schemas.logicalName(source);
    if (target.getLogicalType() instanceof LogicalTypes.Decimal) {
      return toDecimal(source, target);
    }
    if ("big-decimal".equals(tl) && target.getType() == Schema.Type.BYTES) {
      return toBigDecimal(source, target);
    }
    TimeUnit tu = TimeUnit.ofLogicalType(tl);
    TimeUnit su = TimeUnit.ofLogicalType(sl);
    if (tu != null && tl.startsWith("time-")) {
      if (su != null && !sl.startsWith("time-")) {
        throw cannotRead(source, target);
      }
      return withRange(rescale(source, su == null ? tu : su, tu, target), tu, target);
    }
    if (tu != null && isInt96(source)) {
      return v -> int96(((GenericFixed) v).bytes(), tu, target);
    }
    if (tu != null) {
      if (su != null && sl.startsWith("time-") || "date".equals(sl)) {
        throw cannotRead(source, target);
      }
      return rescale(source, su == null ? tu : su, tu, target);
    }
    if ("date".equals(tl) && sl != null && !"date".equals(sl)) {
      throw cannotRead(source, target);
    }
    if ("uuid".equals(tl)) {
      return toUuid(source, target);
    }
    return null;
  }

  private static Converter withRange(Converter inner, TimeUnit unit, Schema target) {
    return v -> {
      Object out = inner.convert(v);
      long n = ((Number) out).longValue();
      if (n < 0 || n >= unit.perDay()) {
        throw new FieldError(n + " is not a time of day (out of range)", Describe.expected(target));
      }
      return out;
    };
  }

  /** Integer time values from {@code from} units to {@code to} units, exactly, in the target's physical type. */
  private static Converter rescale(Schema source, TimeUnit from, TimeUnit to, Schema target) {
    Schema.Type s = source.getType();
    if (s != Schema.Type.INT && s != Schema.Type.LONG || target.getType() == Schema.Type.INT && s == Schema.Type.LONG && from == to) {
      throw cannotRead(source, target);
    }
    boolean toInt = target.getType() == Schema.Type.INT;
    if (from == to) {
      return toInt ? v -> v : v -> ((Number) v).longValue();
    }
    return v -> {
      long n = ((Number) v).longValue();
      long out;
      if (from.perSecond < to.perSecond) {
        try {
          out = Math.multiplyExact(n, to.perSecond / from.perSecond);
        } catch (ArithmeticException e) {
          throw TextValues.outOfRange(Long.toString(n) + " " + from.plural, target);
        }
      } else {
        long factor = from.perSecond / to.perSecond;
        if (n % factor != 0) {
          throw new FieldError(n + " " + from.plural + " is more precise than " + to.plural, Describe.expected(target));
        }
        out = n / factor;
      }
      if (toInt) {
        return TextValues.intValue(out, Long.toString(n) + " " + from.plural, target);
      }
      return out;
    };
  }

  private static Converter toDecimal(Schema source, Schema target) {
    LogicalTypes.Decimal t = (LogicalTypes.Decimal) target.getLogicalType();
    Schema.Type s = source.getType();
    if (source.getLogicalType() instanceof LogicalTypes.Decimal) {
      LogicalTypes.Decimal sd = (LogicalTypes.Decimal) source.getLogicalType();
      boolean samePhysical = s == target.getType() && (s == Schema.Type.BYTES || source.getFixedSize() == target.getFixedSize());
      if (sd.getScale() == t.getScale() && sd.getPrecision() <= t.getPrecision() && samePhysical) {
        // Same encoding and the file's precision fits: the bytes carry over unchanged.
        return s == Schema.Type.BYTES ? v -> v : v -> new GenericData.Fixed(target, ((GenericFixed) v).bytes().clone());
      }
      int scale = sd.getScale();
      return v -> {
        BigDecimal d = Decimals.decode(v, scale);
        return TextValues.decimal(d, t, target, d.toPlainString());
      };
    }
    if (Schemas.logicalName(source) == null) {
      if (s == Schema.Type.INT || s == Schema.Type.LONG) {
        return v -> {
          BigDecimal d = BigDecimal.valueOf(((Number) v).longValue());
          return TextValues.decimal(d, t, target, d.toPlainString());
        };
      }
      if (s == Schema.Type.BYTES || s == Schema.Type.FIXED) {
        // Unannotated bytes: Avro's resolver would take them as the unscaled value, so do the same and check them.
        return v -> {
          BigDecimal d = new BigDecimal(new BigInteger(Decimals.bytesOf(v)), t.getScale());
          return TextValues.decimal(d, t, target, d.toPlainString());
        };
      }
    }
    if ("big-decimal".equals(Schemas.logicalName(source))) {
      return v -> {
        BigDecimal d = Decimals.decodeBig((ByteBuffer) v);
        return TextValues.decimal(d, t, target, d.toPlainString());
      };
    }
    throw cannotRead(source, target);
  }

  private static Converter toBigDecimal(Schema source, Schema target) {
    if ("big-decimal".equals(Schemas.logicalName(source))) {
      return v -> v;
    }
    if (source.getLogicalType() instanceof LogicalTypes.Decimal) {
      int scale = ((LogicalTypes.Decimal) source.getLogicalType()).getScale();
      return v -> Decimals.encodeBig(Decimals.decode(v, scale));
    }
    Schema.Type s = source.getType();
    if (Schemas.logicalName(source) == null && (s == Schema.Type.INT || s == Schema.Type.LONG)) {
      return v -> Decimals.encodeBig(BigDecimal.valueOf(((Number) v).longValue()));
    }
    throw cannotRead(source, target);
  }

  private static Converter toUuid(Schema source, Schema target) {
    boolean sourceFixedUuid = source.getType() == Schema.Type.FIXED && source.getFixedSize() == 16
        && "uuid".equals(Schemas.logicalName(source));
    if (target.getType() == Schema.Type.STRING) {
      if (source.getType() == Schema.Type.STRING) {
        TextParser check = TextValues.parser(target);
        return v -> check.parse(v.toString());
      }
      if (sourceFixedUuid) {
        return v -> uuidText(((GenericFixed) v).bytes());
      }
    } else if (target.getType() == Schema.Type.FIXED && target.getFixedSize() == 16) {
      if (source.getType() == Schema.Type.STRING) {
        TextParser parse = TextValues.parser(target);
        return v -> parse.parse(v.toString());
      }
      if (source.getType() == Schema.Type.FIXED && source.getFixedSize() == 16) {
        return v -> new GenericData.Fixed(target, ((GenericFixed) v).bytes().clone());
      }
    } else {
      return null;
    }
    throw cannotRead(source, target);
  }

  /** An INT32/INT64 Parquet decimal (unscaled, with {@code scale}) read into a decimal or big-decimal column. */
  private static Converter fromIntDecimal(int scale, Schema source, Schema target) {
    if (target.getLogicalType() instanceof LogicalTypes.Decimal) {
      LogicalTypes.Decimal t = (LogicalTypes.Decimal) target.getLogicalType();
      return v -> {
        BigDecimal d = BigDecimal.valueOf(((Number) v).longValue(), scale);
        return TextValues.decimal(d, t, target, d.toPlainString());
      };
    }
    if ("big-decimal".equals(Schemas.logicalName(target)) && target.getType() == Schema.Type.BYTES) {
      return v -> Decimals.encodeBig(BigDecimal.valueOf(((Number) v).longValue(), scale));
    }
    throw new FieldError("is a decimal with scale " + scale + " in the file, which cannot be read as " + Describe.typeName(target),
        "a decimal column");
  }

  /** Legacy Parquet INT96 timestamps (Spark, Hive, Impala): as parquet-avro hands them out, fixed(12) named INT96. */
  private static boolean isInt96(Schema source) {
    return source.getType() == Schema.Type.FIXED && source.getFixedSize() == 12 && "INT96".equals(source.getName())
        && source.getLogicalType() == null;
  }

  /** Decodes INT96: nanoseconds of the day (8 bytes) then the Julian day (4 bytes), both little-endian. */
  private static long int96(byte[] bytes, TimeUnit unit, Schema target) {
    ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long nanoOfDay = buf.getLong();
    long julianDay = buf.getInt() & 0xFFFFFFFFL;
    long seconds = (julianDay - JULIAN_EPOCH_DAY) * 86_400L + Math.floorDiv(nanoOfDay, 1_000_000_000L);
    long nanoOfSecond = Math.floorMod(nanoOfDay, 1_000_000_000L);
    return TextValues.instant(seconds, nanoOfSecond, unit, "INT96 timestamp", target);
  }

  /** The canonical lower-case text of a 16-byte UUID. */
  static String uuidText(byte[] bytes) {
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    return new UUID(buf.getLong(), buf.getLong()).toString();
  }
}
