package dev.sluice.hive;

import dev.sluice.api.SluiceException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;

/**
 * Hive column types and Spark's schema JSON for a table's Avro schema. Hudi derives both from the Parquet schema
 * that parquet-avro makes of the Avro schema (old two-level lists); these map the Avro types straight to what that
 * path gives: strings and enums to {@code string}, int to {@code int}, long to {@code bigint}, bytes and fixed to
 * {@code binary}, decimals to {@code decimal(p,s)}, dates to {@code date}, timestamps to {@code bigint} (or
 * {@code timestamp} with {@code support_timestamp}), records to {@code struct<...>}, arrays and maps likewise.
 */
public final class HiveTypes {
  /** Hudi's meta columns, first in every base file (optional strings). */
  static final List<String> META_FIELDS = List.of("_hoodie_commit_time", "_hoodie_commit_seqno",
      "_hoodie_record_key", "_hoodie_partition_path", "_hoodie_file_name");

  private HiveTypes() {
  }

  /** Column name → Hive type (lower case) of the table's columns, meta columns first, in schema order. */
  public static Map<String, String> columns(Schema tableSchema, boolean supportTimestamp) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String m : META_FIELDS) {
      out.put(m, "string");
    }
    for (Schema.Field f : tableSchema.getFields()) {
      if (!out.containsKey(f.name())) {
        out.put(f.name(), hiveType(f.schema(), supportTimestamp).toLowerCase());
      }
    }
    return out;
  }

  private static String hiveType(Schema s, boolean supportTimestamp) {
    Schema t = nonNull(s);
    LogicalType lt = t.getLogicalType();
    if (lt instanceof LogicalTypes.Decimal d) {
      return "decimal(" + d.getPrecision() + "," + d.getScale() + ")";
    }
    if (lt instanceof LogicalTypes.Date) {
      return "date";
    }
    if (supportTimestamp && (lt instanceof LogicalTypes.TimestampMillis || lt instanceof LogicalTypes.TimestampMicros)) {
      return "timestamp";
    }
    switch (t.getType()) {
      case BOOLEAN:
        return "boolean";
      case INT:
        return "int";
      case LONG:
        return "bigint";
      case FLOAT:
        return "float";
      case DOUBLE:
        return "double";
      case STRING:
      case ENUM:
        return "string";
      case BYTES:
      case FIXED:
        return "binary";
      case ARRAY:
        return "array<" + hiveType(t.getElementType(), supportTimestamp) + ">";
      case MAP:
        return "map<string," + hiveType(t.getValueType(), supportTimestamp) + ">";
      case RECORD:
        return struct(t.getFields().stream().map(f -> new Member(f.name(), f.schema())).toList(), supportTimestamp);
      case UNION:
        return struct(unionMembers(t), supportTimestamp);
      default:
        throw unsupported(t);
    }
  }

  private record Member(String name, Schema schema) {
  }

  private static String struct(List<Member> members, boolean supportTimestamp) {
    StringBuilder sb = new StringBuilder("struct<");
    for (int i = 0; i < members.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      // Hive cannot name a nested field with '$' (Hudi's ColumnNameXLator) and Hudi's struct text has no '-'
      sb.append(members.get(i).name().replace("$", "_dollar_")).append(':')
          .append(hiveType(members.get(i).schema(), supportTimestamp));
    }
    return sb.append('>').toString().replace('-', '_');
  }

  /** parquet-avro writes a union of several non-null types as a group of {@code member0, member1, ...}. */
  private static List<Member> unionMembers(Schema union) {
    List<Member> out = new ArrayList<>();
    int i = 0;
    for (Schema m : union.getTypes()) {
      if (m.getType() != Schema.Type.NULL) {
        out.add(new Member("member" + i++, m));
      }
    }
    return out;
  }

  /**
   * Spark's table schema JSON as Hudi writes it into {@code spark.sql.sources.schema.part.*}: the data columns,
   * then the partition columns (a partition column the schema lacks is a non-null string).
   */
  public static String sparkSchemaJson(Schema tableSchema, List<String> partitionFields) {
    Map<String, String> byName = new LinkedHashMap<>();
    for (String m : META_FIELDS) {
      byName.put(m, sparkField(m, Schema.createUnion(Schema.create(Schema.Type.NULL),
          Schema.create(Schema.Type.STRING))));
    }
    for (Schema.Field f : tableSchema.getFields()) {
      byName.putIfAbsent(f.name(), sparkField(f.name(), f.schema()));
    }
    List<String> fields = new ArrayList<>();
    byName.forEach((name, json) -> {
      if (!partitionFields.contains(name)) {
        fields.add(json);
      }
    });
    for (String p : partitionFields) {
      fields.add(byName.getOrDefault(p, "{\"name\":\"" + p + "\",\"type\":\"string\",\"nullable\":false,\"metadata\":{}}"));
    }
    return "{\"type\":\"struct\",\"fields\":[" + String.join(",", fields) + "]}";
  }

  private static String sparkField(String name, Schema s) {
    return "{\"name\":\"" + name + "\",\"type\":" + sparkType(nonNull(s)) + ",\"nullable\":" + isNullable(s)
        + ",\"metadata\":{}}";
  }

  private static String sparkType(Schema t) {
    LogicalType lt = t.getLogicalType();
    if (lt instanceof LogicalTypes.Decimal d) {
      return "\"decimal(" + d.getPrecision() + "," + d.getScale() + ")\"";
    }
    if (lt instanceof LogicalTypes.Date) {
      return "\"date\"";
    }
    if (lt instanceof LogicalTypes.TimestampMillis || lt instanceof LogicalTypes.TimestampMicros) {
      return "\"timestamp\"";
    }
    switch (t.getType()) {
      case BOOLEAN:
        return "\"boolean\"";
      case INT:
        return "\"integer\"";
      case LONG:
        return "\"long\"";
      case FLOAT:
        return "\"float\"";
      case DOUBLE:
        return "\"double\"";
      case STRING:
      case ENUM:
        return "\"string\"";
      case BYTES:
        return "\"binary\"";
      case ARRAY:
        // the old two-level list has no room for null elements
        return "{\"type\":\"array\", \"elementType\":" + sparkType(nonNull(t.getElementType())) + ",\"containsNull\":false}";
      case MAP:
        return "{\"type\":\"map\", \"keyType\":\"string\",\"valueType\":" + sparkType(nonNull(t.getValueType()))
            + ",\"valueContainsNull\":" + isNullable(t.getValueType()) + "}";
      case RECORD: {
        List<String> fields = new ArrayList<>();
        t.getFields().forEach(f -> fields.add(sparkField(f.name(), f.schema())));
        return "{\"type\":\"struct\",\"fields\":[" + String.join(",", fields) + "]}";
      }
      case UNION: {
        List<String> fields = new ArrayList<>();
        unionMembers(t).forEach(m -> fields.add(sparkField(m.name(), Schema.createUnion(
            Schema.create(Schema.Type.NULL), m.schema()))));
        return "{\"type\":\"struct\",\"fields\":[" + String.join(",", fields) + "]}";
      }
      default:
        // Hudi's converter refuses these too (a fixed that is not a decimal, times of day)
        throw unsupported(t);
    }
  }

  private static boolean isNullable(Schema s) {
    return s.getType() == Schema.Type.UNION && s.getTypes().stream().anyMatch(x -> x.getType() == Schema.Type.NULL);
  }

  /** The type of a {@code [null, T]} union; other schemas as they are. */
  private static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    List<Schema> rest = s.getTypes().stream().filter(x -> x.getType() != Schema.Type.NULL).toList();
    return rest.size() == 1 ? rest.get(0) : Schema.createUnion(rest);
  }

  private static SluiceException unsupported(Schema t) {
    return SluiceException.unsupported("Syncing a column of Avro type " + t + " to the Hive Metastore",
        "set hoodie.datasource.hive_sync.sync_as_datasource=false when only Spark's properties refuse it");
  }
}
