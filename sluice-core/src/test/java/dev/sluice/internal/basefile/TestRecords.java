package dev.sluice.internal.basefile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;

/** Records of a schema with every Avro type, filled from a seed. */
final class TestRecords {
  static final Schema USER = load("/basefile/everything.avsc");
  static final Schema WITH_META = MetaFields.withMetaFields(USER);
  static final String INSTANT = "20260101120000123";

  private TestRecords() {
  }

  private static Schema load(String resource) {
    try (InputStream in = TestRecords.class.getResourceAsStream(resource)) {
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String key(int i) {
    return "key-" + i;
  }

  /** Record {@code i} with meta fields, key {@link #key}, partition {@code p<i % 3>}. */
  static GenericRecord record(int i, String fileName) {
    return record(i, key(i), "p" + (i % 3), fileName);
  }

  static GenericRecord record(int i, String key, String partition, String fileName) {
    Random r = new Random(i);
    GenericData.Record rec = new GenericData.Record(WITH_META);
    rec.put(MetaFields.COMMIT_TIME, INSTANT);
    rec.put(MetaFields.COMMIT_SEQNO, MetaFields.seqNo(INSTANT, 0, i));
    rec.put(MetaFields.RECORD_KEY, key);
    rec.put(MetaFields.PARTITION_PATH, partition);
    rec.put(MetaFields.FILE_NAME, fileName);
    rec.put("id", "id-" + i);
    rec.put("b", r.nextBoolean());
    rec.put("i", r.nextInt());
    rec.put("l", (long) i);
    rec.put("f", r.nextFloat() * 1000);
    rec.put("d", r.nextGaussian() * 1e6);
    rec.put("s", "string ü€😀 " + r.nextInt(100));
    byte[] raw = new byte[r.nextInt(6)];
    r.nextBytes(raw);
    rec.put("by", ByteBuffer.wrap(raw));
    rec.put("opt_s", i % 4 == 0 ? null : "opt" + i);
    rec.put("opt_l", i % 5 == 0 ? null : r.nextLong());
    rec.put("str_or_null", i % 2 == 0 ? null : "sn" + i);
    rec.put("multi", switch (i % 3) {
      case 0 -> null;
      case 1 -> i;
      default -> "m" + i;
    });
    rec.put("nested", inner(r, i % 2 == 0));
    List<Integer> ints = new ArrayList<>();
    for (int k = 0; k < i % 4; k++) {
      ints.add(r.nextInt(1000) - 500);
    }
    rec.put("ints", ints);
    Schema item = USER.getField("recs").schema().getElementType();
    List<GenericRecord> recs = new ArrayList<>();
    for (int k = 0; k < i % 3; k++) {
      GenericData.Record it = new GenericData.Record(item);
      it.put("k", "k" + k);
      it.put("v", k == 1 ? null : r.nextDouble());
      recs.add(it);
    }
    rec.put("recs", recs);
    Map<Utf8, Long> m = new LinkedHashMap<>();
    for (int k = 0; k < i % 3; k++) {
      m.put(new Utf8("mk" + k), r.nextLong());
    }
    rec.put("m", m);
    if (i % 2 == 1) {
      Map<Utf8, GenericRecord> mrec = new LinkedHashMap<>();
      mrec.put(new Utf8("a"), inner(r, true));
      rec.put("mrec", mrec);
    }
    Schema color = USER.getField("e").schema();
    rec.put("e", new GenericData.EnumSymbol(color, color.getEnumSymbols().get(i % 3)));
    byte[] four = new byte[4];
    r.nextBytes(four);
    rec.put("fx", new GenericData.Fixed(USER.getField("fx").schema(), four));
    rec.put("dec_b", ByteBuffer.wrap(BigInteger.valueOf(r.nextInt() / 7).toByteArray()));
    rec.put("dec_f", new GenericData.Fixed(USER.getField("dec_f").schema(), fixed8(r.nextLong() / 3)));
    rec.put("date", 19000 + i);
    rec.put("t_ms", r.nextInt(86_400_000));
    rec.put("t_us", (long) r.nextInt(86_400_000) * 1000 + 7);
    rec.put("ts_ms", 1_700_000_000_000L + i);
    rec.put("ts_us", 1_700_000_000_000_000L + i * 1001L);
    rec.put("opt_ts", i % 3 == 0 ? null : 1_600_000_000_000_000L - i);
    rec.put("u", new UUID(r.nextLong(), r.nextLong()).toString());
    rec.put("opt_rec", i % 3 == 1 ? inner(r, false) : null);
    rec.put("opt_arr", i % 4 == 3 ? null : List.of("x" + i, "y"));
    return rec;
  }

  private static GenericRecord inner(Random r, boolean withDeeper) {
    Schema inner = USER.getField("nested").schema();
    GenericData.Record in = new GenericData.Record(inner);
    in.put("x", r.nextInt());
    if (withDeeper) {
      Schema deeper = inner.getField("y").schema().getTypes().get(1);
      GenericData.Record d = new GenericData.Record(deeper);
      d.put("z", "z" + r.nextInt(10));
      in.put("y", d);
    }
    return in;
  }

  private static byte[] fixed8(long v) {
    return ByteBuffer.allocate(8).putLong(v).array();
  }

  /** {@code s} without its field {@code field}. */
  static Schema without(Schema s, String field) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : s.getFields()) {
      if (!f.name().equals(field)) {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    return Schema.createRecord(s.getName(), s.getDoc(), s.getNamespace(), false, fields);
  }

  /** {@code full}'s values of the fields of {@code schema}, matched by name. */
  static GenericRecord projected(GenericRecord full, Schema schema) {
    GenericData.Record out = new GenericData.Record(schema);
    for (Schema.Field f : schema.getFields()) {
      out.put(f.pos(), full.get(f.name()));
    }
    return out;
  }
}
