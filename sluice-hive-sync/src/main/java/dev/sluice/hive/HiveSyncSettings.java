package dev.sluice.hive;

import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.api.SluiceException;
import dev.sluice.api.TableInspection;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What one sync does, from Hudi's {@code hoodie.datasource.hive_sync.*} keys with the table's own properties filling
 * what they leave out (as Hudi 0.15 infers them).
 *
 * @param metastoreUris the metastore's Thrift URIs, tried in order
 * @param database the metastore database
 * @param table the table name (Merge-on-Read: the base of the {@code _ro}/{@code _rt} names)
 * @param partitionFields the Hive partition columns
 * @param extractor how partition values come from a partition path
 * @param autoCreateDatabase create a missing database
 * @param skipRoSuffix Merge-on-Read: the read-optimized table has the plain name
 * @param supportTimestamp timestamps as Hive TIMESTAMP instead of BIGINT
 * @param asDataSource write Spark's data source table and serde properties
 * @param snapshotWithTableName Merge-on-Read: also the snapshot table under the plain name
 */
public record HiveSyncSettings(List<String> metastoreUris, String database, String table, List<String> partitionFields,
    PartitionValues.Extractor extractor, boolean autoCreateDatabase, boolean skipRoSuffix, boolean supportTimestamp,
    boolean asDataSource, boolean snapshotWithTableName) {
  /** Hudi's table property for hive-style ({@code field=value}) partition folders. */
  static final String HIVE_STYLE = "hoodie.datasource.write.hive_style_partitioning";

  /** Copies the lists. */
  public HiveSyncSettings {
    metastoreUris = List.copyOf(metastoreUris);
    partitionFields = List.copyOf(partitionFields);
  }

  /** The settings for {@code table} under {@code options}; bad values fail naming their key. */
  public static HiveSyncSettings of(Config options, TableInspection table) {
    String mode = options.get(ConfigKeys.HIVE_SYNC_MODE).trim();
    if (!mode.equalsIgnoreCase("hms")) {
      throw SluiceException.badConfig(ConfigKeys.HIVE_SYNC_MODE.name(), mode,
          "hms (Sluice talks to the metastore's Thrift API; the jdbc and hiveql modes need a HiveServer2)");
    }
    List<String> uris = split(options.get(ConfigKeys.HIVE_SYNC_METASTORE_URIS));
    if (uris.isEmpty()) {
      throw SluiceException.badConfig(ConfigKeys.HIVE_SYNC_METASTORE_URIS.name(), "",
          "one or more thrift://HOST:PORT URIs");
    }
    Map<String, String> props = table.properties();
    String name = options.get(ConfigKeys.HIVE_SYNC_TABLE).trim();
    if (name.isEmpty()) {
      name = props.getOrDefault("hoodie.table.name", "");
    }
    if (name.isEmpty()) {
      throw SluiceException.badConfig(ConfigKeys.HIVE_SYNC_TABLE.name(), "",
          "a table name (the table's hoodie.properties has no hoodie.table.name)");
    }
    List<String> fields = options.isSet(ConfigKeys.HIVE_SYNC_PARTITION_FIELDS)
        ? split(options.get(ConfigKeys.HIVE_SYNC_PARTITION_FIELDS)) : table.partitionFields();
    String extractorName = options.get(ConfigKeys.HIVE_SYNC_PARTITION_EXTRACTOR).trim();
    PartitionValues.Extractor extractor = extractorName.isEmpty()
        ? PartitionValues.infer(fields, "true".equals(props.get(HIVE_STYLE)))
        : PartitionValues.named(extractorName);
    return new HiveSyncSettings(uris, options.get(ConfigKeys.HIVE_SYNC_DATABASE).trim(), name, fields, extractor,
        options.get(ConfigKeys.HIVE_SYNC_AUTO_CREATE_DATABASE), options.get(ConfigKeys.HIVE_SYNC_SKIP_RO_SUFFIX),
        options.get(ConfigKeys.HIVE_SYNC_SUPPORT_TIMESTAMP), options.get(ConfigKeys.HIVE_SYNC_AS_DATASOURCE),
        options.get(ConfigKeys.META_SYNC_SNAPSHOT_WITH_TABLE_NAME));
  }

  private static List<String> split(String csv) {
    return Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }
}
