package dev.sluice.bench.data;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The benchmark's records: a string key, a long ordering field, a partition field with {@value #PARTITIONS}
 * values and a dozen typed columns (strings, doubles, a float, ints, longs, a boolean, nullable columns, a nested
 * record and an array), about 150 bytes in Avro's binary encoding.
 *
 * <p>Record {@code i} is a pure function of the seed, {@code i} and its version: its key is a bijective scramble
 * of {@code i} (16 hex digits, so keys are unique and spread uniformly over the key space, and every file group
 * of a key-sorted table holds a slice of every batch), its partition is fixed by {@code i} (an update stays in its
 * partition), and version {@code v} has ordering value {@code v * 10^12 + i}, so later versions win.
 */
public final class BenchRecords {
  /** Number of distinct partition values. */
  public static final int PARTITIONS = 10;
  /** Record key field. */
  public static final String KEY = "key";
  /** Ordering (precombine) field. */
  public static final String ORDERING = "ts";
  /** Partition path field. */
  public static final String PARTITION = "part";

  /** The table schema (no Hudi meta fields). */
  public static final Schema SCHEMA = new Schema.Parser().parse(String.join("\n",
      "{\"type\": \"record\", \"name\": \"bench_row\", \"namespace\": \"dev.sluice.bench\", \"fields\": [",
      "  {\"name\": \"key\", \"type\": \"string\"},",
      "  {\"name\": \"ts\", \"type\": \"long\"},",
      "  {\"name\": \"part\", \"type\": \"string\"},",
      "  {\"name\": \"name\", \"type\": \"string\"},",
      "  {\"name\": \"city\", \"type\": \"string\"},",
      "  {\"name\": \"amount\", \"type\": \"double\"},",
      "  {\"name\": \"price\", \"type\": \"double\"},",
      "  {\"name\": \"qty\", \"type\": \"int\"},",
      "  {\"name\": \"active\", \"type\": \"boolean\"},",
      "  {\"name\": \"score\", \"type\": \"float\"},",
      "  {\"name\": \"visits\", \"type\": \"long\"},",
      "  {\"name\": \"note\", \"type\": [\"null\", \"string\"], \"default\": null},",
      "  {\"name\": \"rating\", \"type\": [\"null\", \"double\"], \"default\": null},",
      "  {\"name\": \"address\", \"type\": {\"type\": \"record\", \"name\": \"address\", \"fields\": [",
      "    {\"name\": \"street\", \"type\": \"string\"},",
      "    {\"name\": \"zip\", \"type\": \"int\"}]}},",
      "  {\"name\": \"tags\", \"type\": {\"type\": \"array\", \"items\": \"string\"}}",
      "]}"));

  private static final Schema ADDRESS = SCHEMA.getField("address").schema();
  private static final Schema TAGS = SCHEMA.getField("tags").schema();
  private static final String[] CITIES = {"Oslo", "Lima", "Quito", "Hanoi", "Pune", "Riga", "Bern", "Cali", "Turku",
      "Tartu", "Gent", "Seoul", "Basel", "Porto", "Accra", "Dakar", "Perth", "Cork", "Split", "Lyon"};
  private static final String[] TAG_WORDS = {"new", "vip", "late", "promo", "gift", "bulk", "eco", "fast", "repeat",
      "fragile", "cold", "heavy"};
  private static final String[] STREETS = {"Main St", "High St", "Station Rd", "Church Ln", "Mill Rd", "Park Ave",
      "Bridge St", "King St"};
  private static final char[] LETTERS = "abcdefghijklmnopqrstuvwxyz".toCharArray();
  private static final char[] HEX = "0123456789abcdef".toCharArray();
  private static final long VERSION_STRIDE = 1_000_000_000_000L;

  private final long seed;

  /** Records derived from {@code seed}. */
  public BenchRecords(long seed) {
    this.seed = seed;
  }

  /** The seed. */
  public long seed() {
    return seed;
  }

  private long scrambled(long index) {
    return Mix.mix(index + seed * Mix.GOLDEN);
  }

  /** The record key of record {@code index}: 16 lowercase hex digits. */
  public String key(long index) {
    long h = scrambled(index);
    char[] out = new char[16];
    for (int i = 15; i >= 0; i--) {
      out[i] = HEX[(int) (h & 0xF)];
      h >>>= 4;
    }
    return new String(out);
  }

  /** The partition path of record {@code index}: {@code p0} ... {@code p9}. */
  public String partition(long index) {
    return "p" + Long.remainderUnsigned(Mix.mix(scrambled(index) ^ 0x5DEECE66DL), PARTITIONS);
  }

  /** The ordering value of version {@code version} of record {@code index}. */
  public static long ordering(long index, int version) {
    return version * VERSION_STRIDE + index;
  }

  /** Version {@code version} (0 = as first inserted) of record {@code index}. */
  public GenericRecord record(long index, int version) {
    Mix.Stream r = new Mix.Stream(scrambled(index) ^ (version * 0x2545F4914F6CDD1DL));
    GenericData.Record row = new GenericData.Record(SCHEMA);
    row.put(0, key(index));
    row.put(1, ordering(index, version));
    row.put(2, partition(index));
    row.put(3, word(r, 5 + r.nextInt(5)) + " " + word(r, 5 + r.nextInt(5)));
    row.put(4, CITIES[r.nextInt(CITIES.length)]);
    row.put(5, Math.round(r.nextDouble() * 1_000_000) / 100.0);
    row.put(6, Math.round(r.nextDouble() * 100_000) / 100.0);
    row.put(7, r.nextInt(1000));
    row.put(8, r.nextBoolean());
    row.put(9, (float) r.nextDouble());
    row.put(10, r.nextLong(1_000_000_000L));
    row.put(11, r.nextInt(10) < 3 ? null : sentence(r, 30 + r.nextInt(31)));
    row.put(12, r.nextInt(10) < 2 ? null : r.nextDouble() * 5);
    GenericData.Record address = new GenericData.Record(ADDRESS);
    address.put(0, (1 + r.nextInt(999)) + " " + STREETS[r.nextInt(STREETS.length)] + ", " + word(r, 6 + r.nextInt(5)));
    address.put(1, 10_000 + r.nextInt(90_000));
    row.put(13, address);
    int tagCount = r.nextInt(4);
    List<String> tags = new ArrayList<>(tagCount);
    for (int t = 0; t < tagCount; t++) {
      tags.add(TAG_WORDS[r.nextInt(TAG_WORDS.length)]);
    }
    row.put(14, new GenericData.Array<>(TAGS, tags));
    return row;
  }

  /** Lowercase words of 2 to 8 letters separated by spaces, {@code length} characters in all. */
  private static String sentence(Mix.Stream r, int length) {
    char[] c = new char[length];
    int nextSpace = 2 + r.nextInt(7);
    for (int i = 0; i < length; i++) {
      if (i == nextSpace && i < length - 1) {
        c[i] = ' ';
        nextSpace = i + 3 + r.nextInt(7);
      } else {
        c[i] = LETTERS[r.nextInt(LETTERS.length)];
      }
    }
    return new String(c);
  }

  private static String word(Mix.Stream r, int length) {
    char[] c = new char[length];
    for (int i = 0; i < length; i++) {
      c[i] = LETTERS[r.nextInt(LETTERS.length)];
    }
    return new String(c);
  }
}
