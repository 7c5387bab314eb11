package dev.sluice.tools.records;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * A reusable test fixture: a record schema holding every Avro type (primitives, complex types, nullable and
 * multi-branch unions, every logical type Avro 1.12 defines) and generators of valid random values for it or
 * for any other schema. Values use the representation {@link RecordSources} produces: {@code String} strings,
 * heap {@link ByteBuffer} bytes, {@link GenericData.Fixed}, {@link GenericData.EnumSymbol},
 * {@link GenericData.Array}, {@link LinkedHashMap} maps, logical types in their physical form.
 *
 * <p>The multi-branch union {@code f_union} is chosen so plain JSON tells its branches apart; the one value
 * it cannot is a string spelled like a non-finite number ({@code "NaN"}), which reads back as the double, so
 * the generators never produce such strings.
 */
public final class AllTypes {
  /** The schema: one field per type; every field of a nullable type defaults to null. */
  public static final Schema SCHEMA = new Schema.Parser().parse(String.join("\n",
      "{\"type\": \"record\", \"name\": \"AllTypes\", \"namespace\": \"dev.sluice.test\", \"fields\": [",
      " {\"name\": \"f_null\", \"type\": \"null\"},",
      " {\"name\": \"f_boolean\", \"type\": \"boolean\"},",
      " {\"name\": \"f_int\", \"type\": \"int\"},",
      " {\"name\": \"f_long\", \"type\": \"long\"},",
      " {\"name\": \"f_float\", \"type\": \"float\"},",
      " {\"name\": \"f_double\", \"type\": \"double\"},",
      " {\"name\": \"f_bytes\", \"type\": \"bytes\"},",
      " {\"name\": \"f_string\", \"type\": \"string\"},",
      " {\"name\": \"f_fixed\", \"type\": {\"type\": \"fixed\", \"name\": \"Fixed4\", \"size\": 4}},",
      " {\"name\": \"f_enum\", \"type\": {\"type\": \"enum\", \"name\": \"Color\", \"symbols\": [\"RED\", \"GREEN\", \"BLUE\"]}},",
      " {\"name\": \"f_array\", \"type\": {\"type\": \"array\", \"items\": \"long\"}},",
      " {\"name\": \"f_map\", \"type\": {\"type\": \"map\", \"values\": \"string\"}},",
      " {\"name\": \"f_record\", \"type\": {\"type\": \"record\", \"name\": \"Address\", \"fields\": [",
      "   {\"name\": \"city\", \"type\": \"string\"},",
      "   {\"name\": \"zip\", \"type\": [\"null\", \"int\"], \"default\": null},",
      "   {\"name\": \"geo\", \"type\": {\"type\": \"record\", \"name\": \"Geo\", \"fields\": [",
      "     {\"name\": \"lat\", \"type\": \"double\"}, {\"name\": \"lon\", \"type\": \"double\"}]}}]}},",
      " {\"name\": \"f_nullable_string\", \"type\": [\"null\", \"string\"], \"default\": null},",
      " {\"name\": \"f_nullable_record\", \"type\": [\"null\", \"Address\"], \"default\": null},",
      " {\"name\": \"f_union\", \"type\": [\"null\", \"long\", \"double\", \"string\", \"boolean\",",
      "   {\"type\": \"record\", \"name\": \"Tagged\", \"fields\": [{\"name\": \"tag\", \"type\": \"string\"}]}], \"default\": null},",
      " {\"name\": \"f_array_of_records\", \"type\": {\"type\": \"array\", \"items\": \"Geo\"}},",
      " {\"name\": \"f_map_of_arrays\", \"type\": {\"type\": \"map\",",
      "   \"values\": {\"type\": \"array\", \"items\": [\"null\", \"int\"]}}},",
      " {\"name\": \"f_decimal_bytes\", \"type\": {\"type\": \"bytes\", \"logicalType\": \"decimal\", \"precision\": 10, \"scale\": 2}},",
      " {\"name\": \"f_decimal_fixed\", \"type\": {\"type\": \"fixed\", \"name\": \"Dec20\", \"size\": 9,",
      "   \"logicalType\": \"decimal\", \"precision\": 20, \"scale\": 4}},",
      " {\"name\": \"f_big_decimal\", \"type\": {\"type\": \"bytes\", \"logicalType\": \"big-decimal\"}},",
      " {\"name\": \"f_date\", \"type\": {\"type\": \"int\", \"logicalType\": \"date\"}},",
      " {\"name\": \"f_time_millis\", \"type\": {\"type\": \"int\", \"logicalType\": \"time-millis\"}},",
      " {\"name\": \"f_time_micros\", \"type\": {\"type\": \"long\", \"logicalType\": \"time-micros\"}},",
      " {\"name\": \"f_timestamp_millis\", \"type\": {\"type\": \"long\", \"logicalType\": \"timestamp-millis\"}},",
      " {\"name\": \"f_timestamp_micros\", \"type\": {\"type\": \"long\", \"logicalType\": \"timestamp-micros\"}},",
      " {\"name\": \"f_timestamp_nanos\", \"type\": {\"type\": \"long\", \"logicalType\": \"timestamp-nanos\"}},",
      " {\"name\": \"f_local_timestamp_millis\",",
      "   \"type\": {\"type\": \"long\", \"logicalType\": \"local-timestamp-millis\"}},",
      " {\"name\": \"f_local_timestamp_micros\", \"type\": {\"type\": \"long\", \"logicalType\": \"local-timestamp-micros\"}},",
      " {\"name\": \"f_local_timestamp_nanos\", \"type\": {\"type\": \"long\", \"logicalType\": \"local-timestamp-nanos\"}},",
      " {\"name\": \"f_uuid\", \"type\": {\"type\": \"string\", \"logicalType\": \"uuid\"}},",
      " {\"name\": \"f_uuid_fixed\", \"type\": {\"type\": \"fixed\", \"name\": \"Uuid16\", \"size\": 16, \"logicalType\": \"uuid\"}},",
      " {\"name\": \"f_duration\",",
      "   \"type\": {\"type\": \"fixed\", \"name\": \"Duration12\", \"size\": 12, \"logicalType\": \"duration\"}},",
      " {\"name\": \"f_nullable_timestamp\", \"type\": [\"null\", {\"type\": \"long\", \"logicalType\": \"timestamp-micros\"}],",
      "   \"default\": null},",
      " {\"name\": \"f_nullable_decimal\", \"type\": [\"null\", {\"type\": \"bytes\", \"logicalType\": \"decimal\",",
      "   \"precision\": 38, \"scale\": 10}], \"default\": null},",
      " {\"name\": \"f_with_default\", \"type\": \"int\", \"default\": 42}",
      "]}"));

  /**
   * {@link #SCHEMA} without what Parquet cannot hold as Avro wrote it: the field of type null, and the union of
   * several non-null types (parquet-avro stores it as a group of optional members, read back as a record).
   */
  public static final Schema PARQUET_SCHEMA = without(SCHEMA, "f_null", "f_union");

  private static final String[] WORDS = {"", "a", "hello", "Grüße", "日本語", "emoji \uD83D\uDE00", "comma, here",
      "quote \" here", "new\nline", "cr\r\nlf", "tab\there", "back\\slash", "  padded  ", "null", "123", "nan", "{\"json\": 1}"};

  private AllTypes() {
  }

  /** A copy of a record schema without the named fields (same name, namespace and field order otherwise). */
  public static Schema without(Schema record, String... fields) {
    List<String> drop = List.of(fields);
    List<Schema.Field> kept = new ArrayList<>();
    for (Schema.Field f : record.getFields()) {
      if (!drop.contains(f.name())) {
        kept.add(new Schema.Field(f, f.schema()));
      }
    }
    return Schema.createRecord(record.getName(), record.getDoc(), record.getNamespace(), false, kept);
  }

  /** A record of {@code schema} holding {@code record}'s values of the same-named fields (values are shared). */
  public static GenericRecord project(GenericRecord record, Schema schema) {
    GenericData.Record out = new GenericData.Record(schema);
    for (Schema.Field f : schema.getFields()) {
      out.put(f.pos(), record.get(f.name()));
    }
    return out;
  }

  /** A random valid record of {@link #SCHEMA}. */
  public static GenericRecord random(Random random) {
    return randomRecord(SCHEMA, random);
  }

  /** {@code count} random records of {@link #SCHEMA}, the same for the same seed. */
  public static List<GenericRecord> records(long seed, int count) {
    Random r = new Random(seed);
    List<GenericRecord> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(random(r));
    }
    return out;
  }

  /** Random records of {@link #SCHEMA} for jqwik properties. */
  public static Arbitrary<GenericRecord> arbitrary() {
    return arbitrary(SCHEMA);
  }

  /** Random records of any record schema for jqwik properties. */
  public static Arbitrary<GenericRecord> arbitrary(Schema schema) {
    return Arbitraries.longs().map(seed -> randomRecord(schema, new Random(seed)));
  }

  /** A random valid record of any record schema. */
  public static GenericRecord randomRecord(Schema schema, Random random) {
    return (GenericRecord) randomValue(schema, random);
  }

  /** A random valid value of any schema, in the readers' representation. */
  public static Object randomValue(Schema schema, Random r) {
    if (schema.getLogicalType() != null) {
      Object v = logical(schema, r);
      if (v != null) {
        return v;
      }
    }
    switch (schema.getType()) {
      case NULL:
        return null;
      case BOOLEAN:
        return r.nextBoolean();
      case INT:
        return pick(r, new Integer[] {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE}, r.nextInt(2000) - 1000, r.nextInt());
      case LONG:
        return pick(r, new Long[] {0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE}, (long) r.nextInt(100_000), r.nextLong());
      case FLOAT:
        return pick(r, new Float[] {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE,
            Float.MAX_VALUE, 0.1f}, r.nextInt(10_000) / 100f, Float.intBitsToFloat(r.nextInt()));
      case DOUBLE:
        return pick(r, new Double[] {0d, -0d, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE,
            Double.MAX_VALUE, 0.1d, 1e20}, r.nextInt(10_000) / 100d, Double.longBitsToDouble(r.nextLong()));
      case STRING:
        return string(r);
      case BYTES:
        return ByteBuffer.wrap(bytes(r, r.nextInt(12)));
      case FIXED:
        return new GenericData.Fixed(schema, bytes(r, schema.getFixedSize()));
      case ENUM:
        List<String> symbols = schema.getEnumSymbols();
        return new GenericData.EnumSymbol(schema, symbols.get(r.nextInt(symbols.size())));
      case ARRAY: {
        int n = r.nextInt(4);
        GenericData.Array<Object> a = new GenericData.Array<>(n, schema);
        for (int i = 0; i < n; i++) {
          a.add(randomValue(schema.getElementType(), r));
        }
        return a;
      }
      case MAP: {
        int n = r.nextInt(4);
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
          m.put(string(r) + i, randomValue(schema.getValueType(), r));
        }
        return m;
      }
      case RECORD: {
        GenericData.Record rec = new GenericData.Record(schema);
        for (Schema.Field f : schema.getFields()) {
          rec.put(f.pos(), randomValue(f.schema(), r));
        }
        return rec;
      }
      case UNION: {
        List<Schema> types = schema.getTypes();
        // Null a third of the time for nullable unions, otherwise a uniformly chosen non-null branch.
        if (Schemas.isNullable(schema) && r.nextInt(3) == 0) {
          return null;
        }
        List<Schema> nonNull = new ArrayList<>();
        for (Schema t : types) {
          if (t.getType() != Schema.Type.NULL) {
            nonNull.add(t);
          }
        }
        return nonNull.isEmpty() ? null : randomValue(nonNull.get(r.nextInt(nonNull.size())), r);
      }
      default:
        throw new IllegalArgumentException("unknown type " + schema.getType());
    }
  }

  private static Object logical(Schema schema, Random r) {
    if (schema.getLogicalType() instanceof LogicalTypes.Decimal) {
      LogicalTypes.Decimal d = (LogicalTypes.Decimal) schema.getLogicalType();
      int digits = 1 + r.nextInt(d.getPrecision());
      BigInteger unscaled = new BigInteger(digits * 4, r).mod(BigInteger.TEN.pow(digits));
      if (r.nextBoolean()) {
        unscaled = unscaled.negate();
      }
      return Decimals.encode(unscaled, schema, "test value");
    }
    String name = schema.getLogicalType().getName();
    switch (name) {
      case "big-decimal":
        return Decimals.encodeBig(new BigDecimal(new BigInteger(1 + r.nextInt(100), r).subtract(BigInteger.TWO.pow(50)),
            r.nextInt(26) - 5));
      case "date":
        return r.nextInt(5) == 0 ? r.nextInt() : r.nextInt(200 * 365) - 70 * 365;
      case "time-millis":
        return r.nextInt(86_400_000);
      case "time-micros":
        return (long) (r.nextDouble() * 86_400_000_000L);
      case "timestamp-millis":
      case "local-timestamp-millis":
        return r.nextInt(5) == 0 ? r.nextLong() : 1_700_000_000_000L + r.nextInt();
      case "timestamp-micros":
      case "local-timestamp-micros":
        return r.nextInt(5) == 0 ? r.nextLong() : 1_700_000_000_000_000L + r.nextLong() % 100_000_000_000_000L;
      case "timestamp-nanos":
      case "local-timestamp-nanos":
        return r.nextLong();
      case "uuid":
        if (schema.getType() == Schema.Type.STRING) {
          return new UUID(r.nextLong(), r.nextLong()).toString();
        }
        return new GenericData.Fixed(schema, bytes(r, 16));
      default:
        return null;
    }
  }

  @SafeVarargs
  private static <T> T pick(Random r, T[] specials, T... others) {
    int i = r.nextInt(specials.length + others.length * 4);
    return i < specials.length ? specials[i] : others[(i - specials.length) % others.length];
  }

  private static String string(Random r) {
    if (r.nextBoolean()) {
      return WORDS[r.nextInt(WORDS.length)];
    }
    int n = r.nextInt(10);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      int kind = r.nextInt(4);
      int cp;
      if (kind == 0) {
        cp = 32 + r.nextInt(95);
      } else if (kind == 1) {
        cp = r.nextInt(32);
      } else if (kind == 2) {
        cp = 0xA0 + r.nextInt(0xD7FF - 0xA0);
      } else {
        cp = 0x10000 + r.nextInt(0x10FFFF - 0x10000);
      }
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }

  private static byte[] bytes(Random r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }
}
