package dev.sluice.spark;

import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.api.TableType;
import dev.sluice.api.WriteOperation;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The options of a Spark write, by Hudi's datasource names, so that a Hudi-on-Spark job's options carry over: the
 * table's shape (used when the write creates the table) and the operation; every other option goes to the engine
 * as it is ({@link #engineOptions}): not {@code hoodie.datasource.*} ones, except the catalog sync's
 * ({@code hoodie.datasource.meta.sync.*}, {@code hoodie.datasource.hive_sync.*}), which the commit's sync reads.
 *
 * @param tableName {@code hoodie.table.name}
 * @param recordKey {@code hoodie.datasource.write.recordkey.field} (comma-separated for a complex key)
 * @param precombine {@code hoodie.datasource.write.precombine.field}, if any
 * @param partitionPath {@code hoodie.datasource.write.partitionpath.field} (empty: not partitioned)
 * @param tableType {@code hoodie.datasource.write.table.type} (default COPY_ON_WRITE)
 * @param hiveStyle {@code hoodie.datasource.write.hive_style_partitioning} (default false)
 * @param operation {@code hoodie.datasource.write.operation} (default upsert), for {@link SluiceSpark#write}
 * @param tableVersion {@code hoodie.write.table.version} (Hudi 1.x's name): the version a write that creates the table
 *     creates it at; absent: {@link dev.sluice.api.TableSpec#DEFAULT_TABLE_VERSION}. An existing table keeps its own
 * @param engineOptions the other options, for the engine
 */
record SparkOptions(String tableName, List<String> recordKey, Optional<String> precombine, List<String> partitionPath,
    TableType tableType, boolean hiveStyle, WriteOperation operation, Optional<Integer> tableVersion,
    Map<String, String> engineOptions)
    implements Serializable {
  static final String TABLE_NAME = "hoodie.table.name";
  static final String RECORD_KEY = "hoodie.datasource.write.recordkey.field";
  static final String PRECOMBINE = "hoodie.datasource.write.precombine.field";
  static final String PARTITION_PATH = "hoodie.datasource.write.partitionpath.field";
  static final String TABLE_TYPE = "hoodie.datasource.write.table.type";
  static final String HIVE_STYLE = "hoodie.datasource.write.hive_style_partitioning";
  static final String OPERATION = "hoodie.datasource.write.operation";
  static final String TABLE_VERSION = "hoodie.write.table.version";
  private static final String DATASOURCE = "hoodie.datasource.";
  /** The datasource keys the engine reads: the catalog sync after each commit (Hudi's names). */
  private static final List<String> SYNC_PREFIXES = List.of("hoodie.datasource.meta.sync.",
      "hoodie.datasource.hive_sync.");

  /** Reads {@code options}; refuses an unknown table type or operation (the message names the option). */
  static SparkOptions of(Map<String, String> options) {
    Map<String, String> engine = new HashMap<>();
    options.forEach((k, v) -> {
      if (!k.startsWith(DATASOURCE) || SYNC_PREFIXES.stream().anyMatch(k::startsWith)) {
        engine.put(k, v);
      }
    });
    engine.remove(TABLE_NAME);
    engine.remove(TABLE_VERSION);
    String type = options.getOrDefault(TABLE_TYPE, "COPY_ON_WRITE").toUpperCase(Locale.ROOT);
    TableType tableType = switch (type) {
      case "COPY_ON_WRITE", "COW" -> TableType.COPY_ON_WRITE;
      case "MERGE_ON_READ", "MOR" -> TableType.MERGE_ON_READ;
      default -> throw SluiceException.badConfig(TABLE_TYPE, type, "COPY_ON_WRITE or MERGE_ON_READ");
    };
    String op = options.getOrDefault(OPERATION, "upsert").trim().toLowerCase(Locale.ROOT);
    WriteOperation operation = switch (op) {
      case "upsert" -> WriteOperation.UPSERT;
      case "insert" -> WriteOperation.INSERT;
      case "delete" -> WriteOperation.DELETE;
      case "bulk_insert" -> WriteOperation.BULK_INSERT;
      default -> throw SluiceException.badConfig(OPERATION, op, "upsert, insert, bulk_insert or delete");
    };
    return new SparkOptions(options.getOrDefault(TABLE_NAME, ""), fields(options.getOrDefault(RECORD_KEY, "")),
        Optional.ofNullable(options.get(PRECOMBINE)).filter(s -> !s.isBlank()),
        fields(options.getOrDefault(PARTITION_PATH, "")), tableType,
        Boolean.parseBoolean(options.getOrDefault(HIVE_STYLE, "false")), operation,
        Optional.ofNullable(options.get(TABLE_VERSION)).map(SparkOptions::version), Map.copyOf(engine));
  }

  private static int version(String v) {
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw SluiceException.badConfig(TABLE_VERSION, v, "6, 8 or 9");
    }
  }

  /** The engine's options. */
  Config config() {
    return Config.of(engineOptions);
  }

  private static List<String> fields(String csv) {
    return csv.isBlank() ? List.of() : List.of(csv.trim().split("\\s*,\\s*"));
  }
}
