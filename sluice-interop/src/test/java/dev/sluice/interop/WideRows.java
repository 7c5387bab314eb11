package dev.sluice.interop;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * A table schema with many Avro shapes (nullable string, int, long, double, boolean, nested record, array of
 * strings, map, decimals on bytes and on fixed, date, timestamp-micros, nullable timestamp-millis) so the Parquet
 * encoding of lists, maps and logical types meets Hudi's reader; and a deterministic row builder.
 * Values are held in Avro's raw form (ByteBuffer/GenericFixed, epoch days, epoch micros), which every writer takes.
 */
final class WideRows {

  static final Schema ADDRESS = SchemaBuilder.record("address").namespace("interop").fields()
      .requiredString("city")
      .optionalInt("zip")
      .endRecord();

  static final Schema AMOUNT = LogicalTypes.decimal(10, 2).addToSchema(Schema.create(Schema.Type.BYTES));
  static final Schema RATE = LogicalTypes.decimal(20, 6).addToSchema(Schema.createFixed("rate_fixed", null,
      "interop", 9));
  static final Schema DAY = LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
  static final Schema EVENT_TIME = LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
  static final Schema UPDATED_AT = Schema.createUnion(Schema.create(Schema.Type.NULL),
      LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG)));

  static final Schema SCHEMA = SchemaBuilder.record("event").namespace("interop").fields()
      .requiredString("id")
      .requiredInt("sub")
      .requiredLong("ts")
      .requiredString("part")
      .optionalString("region")
      .optionalString("name")
      .requiredInt("qty")
      .requiredDouble("price")
      .requiredBoolean("active")
      .name("address").type(ADDRESS).noDefault()
      .name("tags").type().array().items().stringType().noDefault()
      .name("attrs").type().map().values().longType().noDefault()
      .name("amount").type(AMOUNT).noDefault()
      .name("rate").type(RATE).noDefault()
      .name("day").type(DAY).noDefault()
      .name("event_time").type(EVENT_TIME).noDefault()
      .name("updated_at").type(UPDATED_AT).withDefault(null)
      .endRecord();

  private static final Conversions.DecimalConversion DECIMALS = new Conversions.DecimalConversion();
  private static final String[] CITIES = {"Lima", "Oslo", "Kyiv", "Pune", "Quito", "Accra"};

  private WideRows() {
  }

  /**
   * A row; {@code version} varies every non-key field, so an update is visible in all of them (and some versions
   * carry nulls, empty lists and empty maps).
   */
  static GenericRecord row(String id, int sub, long ts, String part, String region, int version) {
    int v = version;
    GenericRecord address = new GenericData.Record(ADDRESS);
    address.put("city", CITIES[Math.floorMod(v + id.hashCode(), CITIES.length)]);
    address.put("zip", v % 5 == 0 ? null : 10_000 + v * 7);
    List<String> tags = new ArrayList<>();
    for (int i = 0; i < v % 4; i++) {
      tags.add("t" + v + "-" + i);
    }
    Map<String, Long> attrs = new LinkedHashMap<>();
    for (int i = 0; i < v % 3; i++) {
      attrs.put("k" + i, (long) v * 1_000_003L - i);
    }
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("id", id);
    r.put("sub", sub);
    r.put("ts", ts);
    r.put("part", part);
    r.put("region", region);
    r.put("name", v % 3 == 0 ? null : "name-" + id + "-" + v + (v % 2 == 0 ? " ünïcödé" : ""));
    r.put("qty", v * 3 - 7);
    r.put("price", v * 1.25 - 3.5);
    r.put("active", v % 2 == 1);
    r.put("address", address);
    r.put("tags", tags);
    r.put("attrs", attrs);
    BigDecimal amount = new BigDecimal(BigDecimal.valueOf((v % 2 == 0 ? 1 : -1) * (v * 1234567L + 89)).toBigInteger(), 2);
    r.put("amount", DECIMALS.toBytes(amount, AMOUNT, AMOUNT.getLogicalType()));
    BigDecimal rate = new BigDecimal(BigDecimal.valueOf(v * 98765432123L + 1).toBigInteger(), 6);
    r.put("rate", DECIMALS.toFixed(rate, RATE, RATE.getLogicalType()));
    r.put("day", 19_000 + v * 11);
    r.put("event_time", 1_700_000_000_000_000L + v * 1_000_001L);
    r.put("updated_at", v % 2 == 0 ? null : 1_700_000_000_000L + v);
    return r;
  }

  /** A row with {@code sub = 0} and region {@code r0}. */
  static GenericRecord row(String id, long ts, String part, int version) {
    return row(id, 0, ts, part, "r0", version);
  }

  /** A copy of {@code row} with another precombine value and version-derived non-key fields. */
  static GenericRecord update(GenericRecord row, long ts, int version) {
    return row(row.get("id").toString(), (Integer) row.get("sub"), ts, row.get("part").toString(),
        row.get("region") == null ? null : row.get("region").toString(), version);
  }

  /** Creates a Sluice table with small bloom filters (1000 entries keep each base file small). */
  static Table create(Path location, TableSpec spec, Map<String, String> options) {
    Map<String, String> o = new HashMap<>(Map.of("hoodie.index.bloom.num_entries", "1000"));
    o.putAll(options);
    return Tables.create(location.toString(), spec, Config.of(o));
  }

  /** Opens a table with small bloom filters for what Sluice writes. */
  static Table open(Path location) {
    return open(location, Map.of());
  }

  /** Opens a table with small bloom filters and {@code options}. */
  static Table open(Path location, Map<String, String> options) {
    Map<String, String> o = new HashMap<>(Map.of("hoodie.index.bloom.num_entries", "1000"));
    o.putAll(options);
    return Tables.open(location.toString(), Config.of(o));
  }

  /**
   * Sluice's side of a table Hudi's writer also writes with {@code hoodie.metadata.enable=false}: the metadata table
   * off here too (Sluice's default is on), since Hudi 0.15's writer with it off fails its archival on a table that
   * has one; a table's metadata setting stays the same across its writers.
   */
  static final Map<String, String> NO_METADATA_TABLE = Map.of("hoodie.metadata.enable", "false");
}
