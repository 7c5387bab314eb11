package dev.sluice.interop;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.apache.avro.Schema;

/**
 * What the oracle's {@code create} needs to initialise a Hudi table. Build with {@link #builder(String, Schema)}.
 *
 * @param tableType       {@code COPY_ON_WRITE} or {@code MERGE_ON_READ}
 * @param name            table name ({@code hoodie.table.name})
 * @param recordKeyFields record key fields, at least one
 * @param precombineField ordering field
 * @param partitionFields partition path fields; empty for a non-partitioned table
 * @param hiveStyle       whether partition paths are {@code field=value}
 * @param payloadClass    payload class to store (Hudi stores it for MoR tables only)
 * @param schema          the data schema, without Hudi meta fields
 */
public record OracleTableSpec(String tableType, String name, List<String> recordKeyFields, String precombineField,
    List<String> partitionFields, boolean hiveStyle, Optional<String> payloadClass, Schema schema) {

  /** Validates and copies the lists. */
  public OracleTableSpec {
    Objects.requireNonNull(tableType, "tableType");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(precombineField, "precombineField");
    Objects.requireNonNull(schema, "schema");
    recordKeyFields = List.copyOf(recordKeyFields);
    partitionFields = List.copyOf(partitionFields);
    payloadClass = Objects.requireNonNull(payloadClass, "payloadClass");
    if (recordKeyFields.isEmpty()) {
      throw new IllegalArgumentException("at least one record key field is needed");
    }
  }

  /** A CoW table named {@code name} keyed by {@code id}, ordered by {@code ts}, not partitioned. */
  public static Builder builder(String name, Schema schema) {
    return new Builder(name, schema);
  }

  /** Builder for {@link OracleTableSpec}. */
  public static final class Builder {
    private final String name;
    private final Schema schema;
    private String tableType = "COPY_ON_WRITE";
    private List<String> recordKeyFields = List.of("id");
    private String precombineField = "ts";
    private final List<String> partitionFields = new ArrayList<>();
    private boolean hiveStyle;
    private Optional<String> payloadClass = Optional.empty();

    private Builder(String name, Schema schema) {
      this.name = name;
      this.schema = schema;
    }

    public Builder copyOnWrite() {
      this.tableType = "COPY_ON_WRITE";
      return this;
    }

    public Builder mergeOnRead() {
      this.tableType = "MERGE_ON_READ";
      return this;
    }

    public Builder recordKey(String... fields) {
      this.recordKeyFields = List.of(fields);
      return this;
    }

    public Builder precombine(String field) {
      this.precombineField = field;
      return this;
    }

    public Builder partitionBy(String... fields) {
      this.partitionFields.clear();
      this.partitionFields.addAll(List.of(fields));
      return this;
    }

    public Builder hiveStyle(boolean enabled) {
      this.hiveStyle = enabled;
      return this;
    }

    public Builder payload(String className) {
      this.payloadClass = Optional.of(className);
      return this;
    }

    public OracleTableSpec build() {
      return new OracleTableSpec(tableType, name, recordKeyFields, precombineField, partitionFields, hiveStyle,
          payloadClass, schema);
    }
  }
}
