package dev.sluice.internal.key;

import dev.sluice.internal.error.Errors;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

/**
 * Computes a record's key and partition path the way Hudi's Simple, Complex and Nonpartitioned key generators
 * do: one key field gives the plain value (or {@code f1:v1}, see {@link KeySpec#namesSingleKeyField}); several give
 * {@code f1:v1,f2:v2} with {@code __null__} and {@code __empty__} placeholders. Partition values join with {@code /}, optionally hive style
 * ({@code field=value}); a null or empty value becomes {@code __HIVE_DEFAULT_PARTITION__}.
 */
public final class KeyGenerator {
  /** Hudi's placeholder for a null or empty partition value. */
  public static final String DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";

  private final List<FieldPath> keyFields;
  private final List<FieldPath> partitionFields;
  private final boolean hiveStyle;
  private final boolean urlEncode;
  private final boolean namesSingleKeyField;

  private KeyGenerator(List<FieldPath> keyFields, List<FieldPath> partitionFields, KeySpec spec) {
    this.keyFields = keyFields;
    this.partitionFields = partitionFields;
    this.hiveStyle = spec.hiveStyle();
    this.urlEncode = spec.urlEncode();
    this.namesSingleKeyField = spec.namesSingleKeyField();
  }

  /**
   * How a table makes keys and partition paths from its records.
   *
   * @param recordKeyFields the record key fields, in order
   * @param partitionFields the partition path fields, in order (none: not partitioned)
   * @param hiveStyle partition path segments as {@code field=value}
   * @param urlEncode partition values URL-encoded
   * @param namesSingleKeyField one key field still written as {@code field:value}, as Hudi 1.1's complex key generator
   *     does on version 9 tables
   */
  public record KeySpec(List<String> recordKeyFields, List<String> partitionFields, boolean hiveStyle, boolean urlEncode,
      boolean namesSingleKeyField) {
    public KeySpec {
      recordKeyFields = List.copyOf(recordKeyFields);
      partitionFields = List.copyOf(partitionFields);
    }
  }

  /**
   * A key generator for records of {@code schema}; every field must exist (dotted paths reach nested fields).
   */
  public static KeyGenerator of(Schema schema, List<String> recordKeyFields, List<String> partitionFields,
      boolean hiveStyle, boolean urlEncode) {
    return of(schema, new KeySpec(recordKeyFields, partitionFields, hiveStyle, urlEncode, false));
  }

  /** A key generator for records of {@code schema} made as {@code spec} says; every field must exist. */
  public static KeyGenerator of(Schema schema, KeySpec spec) {
    if (spec.recordKeyFields().isEmpty()) {
      throw Errors.badRequest("Record key", "no record key field is configured", "Give at least one --record-key field.");
    }
    return new KeyGenerator(spec.recordKeyFields().stream().map(f -> FieldPath.resolve(schema, f, "record key")).toList(),
        spec.partitionFields().stream().map(f -> FieldPath.resolve(schema, f, "partition path")).toList(), spec);
  }

  /** True when the table has no partition fields. */
  public boolean nonPartitioned() {
    return partitionFields.isEmpty();
  }

  /** The record key; fails if the key is null or empty (all parts, for a complex key). */
  public String recordKey(GenericRecord record) {
    if (keyFields.size() == 1 && !namesSingleKeyField) {
      FieldPath f = keyFields.get(0);
      String v = stringValue(f, record);
      if (v == null || v.isEmpty()) {
        throw Errors.badInput("record key", f.name(), "the record key is " + (v == null ? "null" : "empty"),
            "a non-empty value");
      }
      return v;
    }
    StringBuilder sb = new StringBuilder();
    String[] values = new String[keyFields.size()];
    boolean allMissing = true;
    for (int i = 0; i < keyFields.size(); i++) {
      FieldPath f = keyFields.get(i);
      String v = stringValue(f, record);
      values[i] = v;
      sb.append(f.name()).append(':').append(ComplexKeys.encode(v));
      allMissing &= v == null || v.isEmpty();
      if (i < keyFields.size() - 1) {
        sb.append(',');
      }
    }
    if (allMissing) {
      throw Errors.badInput("record key", String.join(",", keyFields.stream().map(FieldPath::name).toList()),
          "every record key field is null or empty", "at least one non-empty key field");
    }
    String key = sb.toString();
    if (ComplexKeys.suspicious(values)) {
      List<String> names = keyFields.stream().map(FieldPath::name).toList();
      ComplexKeys.collision(names, values, key).ifPresent(c -> {
        throw Errors.badInput("record key", names.get(c.field()), "the complex key " + ComplexKeys.shown(names,
            Arrays.asList(values)) + " encodes as " + PartitionPaths.shown(key) + ", exactly as " + ComplexKeys.shown(names, c.other())
            + " does, so Hudi's key encoding (field:value,field:value) would treat two different keys as one record",
            "key values that contain neither ',<later key field>:' nor the placeholders __null__ / __empty__");
      });
    }
    return key;
  }

  /**
   * True if the table is partitioned and {@code record} has no value (null or empty) for any of its partition path
   * fields: its partition path is the default partition's.
   */
  public boolean partitionValuesMissing(GenericRecord record) {
    if (partitionFields.isEmpty()) {
      return false;
    }
    for (FieldPath f : partitionFields) {
      String v = stringValue(f, record);
      if (v != null && !v.isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /**
   * The relative partition path ("" for a non-partitioned table). Fails as bad input, before anything is written,
   * when a value would not name a folder inside the table (see {@link PartitionPaths}).
   */
  public String partitionPath(GenericRecord record) {
    if (partitionFields.isEmpty()) {
      return "";
    }
    // a value is one folder level unless it is the only, plain partition field (Hudi's "2024/01/31" convention)
    boolean oneLevel = hiveStyle || partitionFields.size() > 1;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < partitionFields.size(); i++) {
      FieldPath f = partitionFields.get(i);
      String v = stringValue(f, record);
      String text;
      if (v == null || v.isEmpty()) {
        text = DEFAULT_PARTITION;
      } else {
        text = urlEncode ? PartitionPaths.escape(v) : v;
      }
      if (hiveStyle) {
        text = f.name() + "=" + text;
      }
      PartitionPaths.check(f.name(), v == null ? "" : v, text, oneLevel, urlEncode);
      sb.append(text);
      if (i < partitionFields.size() - 1) {
        sb.append('/');
      }
    }
    return sb.toString();
  }

  private static String stringValue(FieldPath f, GenericRecord record) {
    Object v = f.get(record);
    if (v == null) {
      return null;
    }
    LogicalType lt = f.schema().getLogicalType();
    if (lt instanceof LogicalTypes.Date) {
      return LocalDate.ofEpochDay(((Number) v).longValue()).toString();
    }
    if (lt instanceof LogicalTypes.Decimal d) {
      Conversions.DecimalConversion conv = new Conversions.DecimalConversion();
      BigDecimal bd = v instanceof GenericFixed fx
          ? conv.fromFixed(fx, f.schema(), d)
          : conv.fromBytes(((ByteBuffer) v).duplicate(), f.schema(), d);
      return bd.toString();
    }
    return v.toString();
  }
}
