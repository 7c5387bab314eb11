package dev.sluice.internal.timeline;

import dev.sluice.api.WriteOperation;
import java.util.Locale;

/** Write operations as recorded in commit metadata ({@code WriteOperationType}); JSON uses the enum name. */
public enum WriteOperationType {
  INSERT("insert"),
  INSERT_PREPPED("insert_prepped"),
  UPSERT("upsert"),
  UPSERT_PREPPED("upsert_prepped"),
  BULK_INSERT("bulk_insert"),
  BULK_INSERT_PREPPED("bulk_insert_prepped"),
  DELETE("delete"),
  DELETE_PREPPED("delete_prepped"),
  BOOTSTRAP("bootstrap"),
  INSERT_OVERWRITE("insert_overwrite"),
  CLUSTER("cluster"),
  DELETE_PARTITION("delete_partition"),
  INSERT_OVERWRITE_TABLE("insert_overwrite_table"),
  COMPACT("compact"),
  INDEX("index"),
  ALTER_SCHEMA("alter_schema"),
  LOG_COMPACT("logcompact"),
  UNKNOWN("unknown");

  private final String value;

  WriteOperationType(String value) {
    this.value = value;
  }

  /** Hudi's lower-case value (e.g. {@code bulk_insert}), as used in {@code hoodie.datasource.write.operation}. */
  public String value() {
    return value;
  }

  /** The operation type a write of {@code op} records in its commit metadata. */
  public static WriteOperationType of(WriteOperation op) {
    return switch (op) {
      case INSERT -> INSERT;
      case UPSERT -> UPSERT;
      case DELETE -> DELETE;
      case BULK_INSERT -> BULK_INSERT;
    };
  }

  /** The type for an enum name or a lower-case value; {@link #UNKNOWN} for anything else. */
  public static WriteOperationType parse(String s) {
    if (s == null) {
      return UNKNOWN;
    }
    for (WriteOperationType t : values()) {
      if (t.name().equals(s) || t.value.equals(s.toLowerCase(Locale.ROOT))) {
        return t;
      }
    }
    return UNKNOWN;
  }
}
