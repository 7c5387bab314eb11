package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.sluice.internal.basefile.BaseFileWriter.PageEncoder;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Random columns through both encoders give the same bytes: numbers with the values that order oddly (NaN, -0.0 and
 * 0.0, the extremes), random cardinality (dictionaries kept, overflowing, refused at the first page), nulls at random
 * rates, strings and bytes of random length, random page and row group sizes, dictionary on or off.
 */
class PageEncoderPropertyTest {
  private static final Schema USER = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"p\",\"fields\":["
      + "{\"name\":\"i\",\"type\":[\"null\",\"int\"]},{\"name\":\"l\",\"type\":\"long\"},"
      + "{\"name\":\"f\",\"type\":[\"null\",\"float\"]},{\"name\":\"d\",\"type\":\"double\"},"
      + "{\"name\":\"b\",\"type\":[\"null\",\"boolean\"]},{\"name\":\"s\",\"type\":[\"null\",\"string\"]},"
      + "{\"name\":\"by\",\"type\":\"bytes\"},"
      + "{\"name\":\"xs\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"double\"}]}]}");
  private static final Schema SCHEMA = MetaFields.withMetaFields(USER);
  private static final float[] FLOATS = {Float.NaN, -0.0f, 0.0f, Float.MIN_VALUE, -Float.MAX_VALUE, Float.MAX_VALUE,
      Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, 1.5f, -2.25f};
  private static final double[] DOUBLES = {Double.NaN, -0.0, 0.0, Double.MIN_VALUE, -Double.MAX_VALUE,
      Double.MAX_VALUE, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 1e300, -3.5};
  private static final int[] INTS = {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE};
  private static final long[] LONGS = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE};

  @Property(tries = 50, seed = "20261203")
  void bothEncodersWriteTheSameBytes(@ForAll long seed, @ForAll @IntRange(min = 1, max = 2500) int rows,
      @ForAll @IntRange(min = 1, max = 3000) int distinct, @ForAll @IntRange(min = 0, max = 100) int nullPercent,
      @ForAll @IntRange(min = 7, max = 14) int pageBits, @ForAll boolean dictionary) throws IOException {
    List<GenericRecord> records = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      records.add(record(new Random(seed + i % distinct), i, nullPercent));
    }
    BaseFileWriterOptions options = BaseFileWriterOptions.defaults().withCodec("uncompressed")
        .withPageSize(1 << pageBits).withRowGroupSize(64L << pageBits);
    if (!dictionary) {
      options = new BaseFileWriterOptions(options.codec(), options.rowGroupSize(), options.pageSize(), false,
          options.bloomType(), options.bloomNumEntries(), options.bloomFpp(), options.bloomMaxEntries());
    }
    Path dir = Files.createTempDirectory("page-encoder-prop");
    try {
      assertArrayEquals(write(dir, options, PageEncoder.PARQUET, records), write(dir, options, PageEncoder.SLUICE,
          records), "seed " + seed);
    } finally {
      for (PageEncoder e : PageEncoder.values()) {
        Files.deleteIfExists(dir.resolve(e + ".parquet"));
      }
      Files.delete(dir);
    }
  }

  private static byte[] write(Path dir, BaseFileWriterOptions options, PageEncoder encoder, List<GenericRecord> rows)
      throws IOException {
    Path p = dir.resolve(encoder + ".parquet");
    try (BaseFileWriter w = BaseFileWriter.open(new LocalStorage(), p.toString(), SCHEMA, options, true, encoder)) {
      rows.forEach(w::write);
      w.finish();
    }
    return Files.readAllBytes(p);
  }

  private static GenericRecord record(Random r, int i, int nullPercent) {
    GenericData.Record rec = new GenericData.Record(SCHEMA);
    rec.put(MetaFields.COMMIT_TIME, "20260101120000123");
    rec.put(MetaFields.COMMIT_SEQNO, "20260101120000123_0_" + i);
    rec.put(MetaFields.RECORD_KEY, "key-" + i);
    rec.put(MetaFields.PARTITION_PATH, "p" + r.nextInt(3));
    rec.put(MetaFields.FILE_NAME, "f.parquet");
    rec.put("i", nul(r, nullPercent) ? null : r.nextBoolean() ? INTS[r.nextInt(INTS.length)] : r.nextInt());
    rec.put("l", r.nextBoolean() ? LONGS[r.nextInt(LONGS.length)] : r.nextLong());
    rec.put("f", nul(r, nullPercent) ? null : r.nextBoolean() ? FLOATS[r.nextInt(FLOATS.length)] : r.nextFloat());
    rec.put("d", r.nextBoolean() ? DOUBLES[r.nextInt(DOUBLES.length)] : r.nextGaussian());
    rec.put("b", nul(r, nullPercent) ? null : r.nextBoolean());
    StringBuilder s = new StringBuilder();
    int len = r.nextInt(40);
    for (int k = 0; k < len; k++) {
      s.append((char) (r.nextInt(5) == 0 ? 0x80 + r.nextInt(0x700) : 'a' + r.nextInt(26)));
    }
    rec.put("s", nul(r, nullPercent) ? null : s.toString());
    byte[] raw = new byte[r.nextInt(12)];
    r.nextBytes(raw);
    rec.put("by", ByteBuffer.wrap(raw));
    List<Double> xs = new ArrayList<>();
    for (int k = r.nextInt(4); k > 0; k--) {
      xs.add(DOUBLES[r.nextInt(DOUBLES.length)]);
    }
    rec.put("xs", nul(r, nullPercent) ? null : xs);
    return rec;
  }

  private static boolean nul(Random r, int percent) {
    return r.nextInt(100) < percent;
  }
}
