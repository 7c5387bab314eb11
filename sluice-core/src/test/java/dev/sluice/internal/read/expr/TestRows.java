package dev.sluice.internal.read.expr;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;

/** A test schema covering the supported column types, record builders, and Parquet file helpers. */
final class TestRows {
  static final Schema SCHEMA = new Schema.Parser().parse("""
      {"type": "record", "name": "row", "namespace": "test", "fields": [
        {"name": "id", "type": "long"},
        {"name": "part", "type": "string"},
        {"name": "i", "type": ["null", "int"], "default": null},
        {"name": "l", "type": ["null", "long"], "default": null},
        {"name": "f", "type": ["null", "float"], "default": null},
        {"name": "d", "type": ["null", "double"], "default": null},
        {"name": "b", "type": ["null", "boolean"], "default": null},
        {"name": "s", "type": ["null", "string"], "default": null},
        {"name": "dt", "type": ["null", {"type": "int", "logicalType": "date"}], "default": null},
        {"name": "ts", "type": ["null", {"type": "long", "logicalType": "timestamp-micros"}], "default": null},
        {"name": "tsm", "type": ["null", {"type": "long", "logicalType": "timestamp-millis"}], "default": null},
        {"name": "amount", "type": ["null",
          {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}], "default": null},
        {"name": "color", "type": ["null",
          {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN", "BLUE"]}], "default": null},
        {"name": "uid", "type": ["null", {"type": "string", "logicalType": "uuid"}], "default": null},
        {"name": "addr", "type": ["null", {"type": "record", "name": "Addr", "fields": [
          {"name": "city", "type": ["null", "string"], "default": null},
          {"name": "zip", "type": ["null", "int"], "default": null},
          {"name": "geo", "type": ["null", {"type": "record", "name": "Geo", "fields": [
            {"name": "lat", "type": "double"}]}], "default": null}]}], "default": null},
        {"name": "tags", "type": {"type": "array", "items": "string"}, "default": []}
      ]}
      """);

  static final Schema ADDR = ExpressionBinder.withoutNull(SCHEMA.getField("addr").schema());
  static final Schema GEO = ExpressionBinder.withoutNull(ADDR.getField("geo").schema());
  static final Schema COLOR = ExpressionBinder.withoutNull(SCHEMA.getField("color").schema());

  private TestRows() {
  }

  /** A row with the required fields set and every optional one null (GenericRecordBuilder is slow for this). */
  static RowBuilder row(long id, String part) {
    GenericData.Record r = new GenericData.Record(SCHEMA);
    r.put("id", id);
    r.put("part", part);
    r.put("tags", List.of());
    return new RowBuilder(r);
  }

  /** Sets fields of a row under construction. */
  static final class RowBuilder {
    private final GenericData.Record record;

    private RowBuilder(GenericData.Record record) {
      this.record = record;
    }

    RowBuilder set(String field, Object value) {
      record.put(field, value);
      return this;
    }

    GenericRecord build() {
      return record;
    }
  }

  static GenericRecord addr(String city, Integer zip, Double lat) {
    GenericData.Record r = new GenericData.Record(ADDR);
    r.put("city", city);
    r.put("zip", zip);
    if (lat != null) {
      GenericData.Record geo = new GenericData.Record(GEO);
      geo.put("lat", lat);
      r.put("geo", geo);
    }
    return r;
  }

  static GenericData.EnumSymbol color(String symbol) {
    return new GenericData.EnumSymbol(COLOR, symbol);
  }

  /** Decimal(10, 2) as Avro stores it: the unscaled two's-complement bytes. */
  static ByteBuffer decimal(String value) {
    return ByteBuffer.wrap(new BigDecimal(value).setScale(2).unscaledValue().toByteArray());
  }

  /** Writes a Parquet file with at most {@code rowsPerGroup} rows per row group and 2 rows per page. */
  static void write(Path file, Schema schema, List<GenericRecord> rows, int rowsPerGroup) throws IOException {
    try (ParquetWriter<GenericRecord> w = AvroParquetWriter.<GenericRecord>builder(new LocalOutputFile(file))
        .withConf(new PlainParquetConfiguration())
        .withSchema(schema)
        .withDataModel(GenericData.get())
        .withRowGroupRowCountLimit(rowsPerGroup)
        .withPageRowCountLimit(2)
        .build()) {
      for (GenericRecord r : rows) {
        w.write(r);
      }
    }
  }

  /** Reads a file with the filter applied (statistics, dictionary, page index and, if asked, record level). */
  static List<GenericRecord> read(Path file, Optional<FilterPredicate> filter, boolean recordFilter) throws IOException {
    List<GenericRecord> out = new ArrayList<>();
    try (ParquetReader<GenericRecord> r = AvroParquetReader.<GenericRecord>builder(new LocalInputFile(file),
            new PlainParquetConfiguration())
        .withDataModel(GenericData.get())
        .withFilter(filter.map(FilterCompat::get).orElse(FilterCompat.NOOP))
        .useRecordFilter(recordFilter)
        .build()) {
      for (GenericRecord rec = r.read(); rec != null; rec = r.read()) {
        out.add(rec);
      }
    }
    return out;
  }

  static int rowGroups(Path file) throws IOException {
    try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file))) {
      return r.getRowGroups().size();
    }
  }

  static List<Long> ids(List<GenericRecord> rows) {
    return rows.stream().map(r -> (Long) r.get("id")).toList();
  }
}
