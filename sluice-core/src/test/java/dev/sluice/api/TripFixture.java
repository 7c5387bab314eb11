package dev.sluice.api;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** A small table schema and record builders shared by the end-to-end tests. */
public final class TripFixture {
  /** id (key), ts (precombine), part (partition), name (nullable), amount. */
  public static final Schema SCHEMA = SchemaBuilder.record("trip").namespace("test").fields()
      .requiredString("id")
      .requiredLong("ts")
      .requiredString("part")
      .optionalString("name")
      .requiredDouble("amount")
      .endRecord();

  private TripFixture() {
  }

  /** A record of {@link #SCHEMA}. */
  public static GenericRecord trip(String id, long ts, String part, String name, double amount) {
    GenericData.Record r = new GenericData.Record(SCHEMA);
    r.put("id", id);
    r.put("ts", ts);
    r.put("part", part);
    r.put("name", name);
    r.put("amount", amount);
    return r;
  }

  /** {@code n} trips {@code id-<from+i>} spread over partitions p0..p(parts-1). */
  public static List<GenericRecord> trips(int from, int n, int parts, long ts) {
    List<GenericRecord> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      out.add(trip(String.format("id-%06d", i), ts, "p" + (i % parts), "name-" + i, i * 1.5));
    }
    return out;
  }

  /** A spec for a CoW table of trips partitioned by part. */
  public static TableSpec.Builder spec() {
    return TableSpec.builder("trips").type(TableType.COPY_ON_WRITE).recordKey("id").precombine("ts")
        .partitionBy("part").schema(SCHEMA).mergeMode(MergeMode.EVENT_TIME_ORDERING);
  }

  /** Creates a table in {@code dir} with small bloom filters (fast tests). */
  public static Table create(Path dir, TableSpec spec, Map<String, String> options) {
    Map<String, String> o = new java.util.HashMap<>(Map.of("hoodie.index.bloom.num_entries", "1000"));
    o.putAll(options);
    return Tables.create(dir.toString(), spec, Config.of(o));
  }

  /** Every row of a scan, by record key (user columns). */
  public static Map<String, GenericRecord> rows(Table t) {
    return rows(t.newScan().open());
  }

  /** Rows of an iterator, by the value of their {@code id} column. */
  public static Map<String, GenericRecord> rows(CloseableIterator<GenericRecord> it) {
    Map<String, GenericRecord> out = new TreeMap<>();
    try (it) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        Object id = r.getSchema().getField("id") != null ? r.get("id") : r.get("_hoodie_record_key");
        GenericRecord prev = out.put(id.toString(), r);
        if (prev != null) {
          throw new AssertionError("key " + id + " returned twice: " + prev + " and " + r);
        }
      }
    }
    return out;
  }

  /** An iterator over records. */
  public static Iterator<GenericRecord> it(List<GenericRecord> records) {
    return records.iterator();
  }
}
