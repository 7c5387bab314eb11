package dev.sluice.api;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.table.TableConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * Everything needed to create a table. Build with {@link #builder(String)}.
 *
 * @param name table name ({@code hoodie.table.name})
 * @param type Copy-on-Write or Merge-on-Read
 * @param recordKeyFields record key field(s); several make Hudi's complex key
 * @param precombineField ordering field that decides between two versions of a key
 * @param partitionFields partition path field(s); empty for a non-partitioned table
 * @param hiveStylePartitioning {@code field=value} partition folders
 * @param schema the Avro record schema of the table (no {@code _hoodie_*} fields)
 * @param mergeMode event-time ordering (default) or commit-time overwrite
 * @param properties more table properties for {@code hoodie.properties}
 * @param tableVersion the Hudi table version to create: 9 (default; Hudi 1.1 and later read it), 8 (Hudi 1.0 and
 *     later) or 6 (Hudi 0.14 and later: the one to choose when Hudi 0.x engines must read or write the table)
 */
public record TableSpec(String name, TableType type, List<String> recordKeyFields, Optional<String> precombineField,
    List<String> partitionFields, boolean hiveStylePartitioning, Schema schema, MergeMode mergeMode,
    Map<String, String> properties, int tableVersion) {

  /**
   * The version of a table created without {@link Builder#tableVersion}: 9, the version Hudi 1.1 and later write.
   * Hudi 0.14/0.15 read only version 6 and Hudi 1.0 reads 6 and 8, so a table those engines must read is created
   * with {@code tableVersion(6)} (or 8). An existing table keeps its own version; this applies to new tables only.
   */
  public static final int DEFAULT_TABLE_VERSION = 9;

  /** A builder for a table called {@code name}. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Builder of {@link TableSpec}. */
  public static final class Builder {
    private final String name;
    private TableType type = TableType.COPY_ON_WRITE;
    private final List<String> keys = new ArrayList<>();
    private String precombine;
    private final List<String> partitions = new ArrayList<>();
    private boolean hiveStyle;
    private Schema schema;
    private MergeMode mergeMode = MergeMode.EVENT_TIME_ORDERING;
    private final Map<String, String> properties = new LinkedHashMap<>();
    private int tableVersion = DEFAULT_TABLE_VERSION;

    private Builder(String name) {
      this.name = name;
    }

    /** Table type (default Copy-on-Write). */
    public Builder type(TableType t) {
      this.type = t;
      return this;
    }

    /** Record key field(s). */
    public Builder recordKey(String... fields) {
      keys.clear();
      keys.addAll(List.of(fields));
      return this;
    }

    /** Precombine (ordering) field. */
    public Builder precombine(String field) {
      this.precombine = field;
      return this;
    }

    /** Partition field(s); none for a non-partitioned table. */
    public Builder partitionBy(String... fields) {
      partitions.clear();
      partitions.addAll(List.of(fields));
      return this;
    }

    /** Hive-style partition folders ({@code field=value}). */
    public Builder hiveStyle(boolean on) {
      this.hiveStyle = on;
      return this;
    }

    /** The table schema. */
    public Builder schema(Schema s) {
      this.schema = s;
      return this;
    }

    /** Merge mode (default event-time ordering). */
    public Builder mergeMode(MergeMode m) {
      this.mergeMode = m;
      return this;
    }

    /** An extra property for {@code hoodie.properties}. */
    public Builder property(String key, String value) {
      properties.put(key, value);
      return this;
    }

    /**
     * The table version: 9 (the default, {@link #DEFAULT_TABLE_VERSION}), 8 ({@code hoodie.properties} and timeline
     * as Hudi 1.0.2 write them) or 6 (as Hudi 0.15 writes them). Any other is BAD_REQUEST.
     */
    public Builder tableVersion(int v) {
      this.tableVersion = TableConfig.creatableVersion(v);
      return this;
    }

    /** Validates and builds. */
    public TableSpec build() {
      if (name == null || name.isBlank()) {
        throw Errors.badRequest("Table name", "it is empty", "Give the table a name (--name).");
      }
      if (schema == null || schema.getType() != Schema.Type.RECORD) {
        throw Errors.badRequest("Table schema", "none was given or it is not a record", "Give --schema or --columns.");
      }
      if (keys.isEmpty()) {
        throw Errors.badRequest("Record key", "no record key field was given", "Give --record-key.");
      }
      List<String> required = new ArrayList<>(keys);
      if (precombine != null) {
        required.add(precombine);
      }
      required.addAll(partitions);
      for (String f : required) {
        if (schema.getField(f.split("\\.")[0]) == null) {
          throw Errors.badRequest("Field '" + f + "'", "it is not in the table schema (fields: "
              + schema.getFields().stream().map(Schema.Field::name).toList() + ")", "Name a field of the schema.");
        }
      }
      return new TableSpec(name, type, List.copyOf(keys), Optional.ofNullable(precombine), List.copyOf(partitions),
          hiveStyle, schema, mergeMode, Map.copyOf(properties), tableVersion);
    }
  }
}
