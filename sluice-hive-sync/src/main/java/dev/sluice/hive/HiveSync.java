package dev.sluice.hive;

import dev.sluice.api.InstantInfo;
import dev.sluice.api.SluiceException;
import dev.sluice.api.TableInspection;
import dev.sluice.api.TableType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;

/**
 * One sync of a table to the Hive Metastore, as Hudi 0.15's {@code HiveSyncTool} does in {@code hms} mode: the
 * database if missing; per metastore table (Copy-on-Write: one; Merge-on-Read: {@code _ro} with Hudi's Parquet input
 * format, {@code _rt} and the plain name with its realtime input format) the definition created, or its columns and
 * properties updated; then its partitions: all of them against the table's partition folders on the first sync
 * (or when the last synced commit has left the active timeline), else those the commits completed since
 * {@code last_commit_time_sync} wrote (added when missing or moved, dropped when the timeline says they were
 * deleted, see {@link TimelinePartitions}); last the table's {@code last_commit_time_sync}. Only what differs is
 * written, so a second sync changes nothing.
 */
public final class HiveSync {
  static final String PARQUET_INPUT = "org.apache.hudi.hadoop.HoodieParquetInputFormat";
  static final String REALTIME_INPUT = "org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat";
  static final String PARQUET_OUTPUT = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";
  static final String PARQUET_SERDE = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
  /** Table properties Hudi's sync keeps: the last commit synced and when it completed. */
  static final String LAST_COMMIT = "last_commit_time_sync";
  static final String LAST_COMMIT_COMPLETION = "last_commit_completion_time_sync";
  /** Hudi's split of the Spark schema JSON over several properties. */
  static final int SCHEMA_PART_LENGTH = 4000;

  private final dev.sluice.api.Table table;
  private final HiveSyncSettings settings;
  private final TableInspection inspection;
  private final List<String> changes = new ArrayList<>();

  private HiveSync(dev.sluice.api.Table table, HiveSyncSettings settings) {
    this.table = table;
    this.settings = settings;
    this.inspection = table.inspect();
  }

  /** Syncs {@code table}; returns what changed in the metastore, one line each. */
  public static List<String> run(dev.sluice.api.Table table, HiveSyncSettings settings) {
    return new HiveSync(table, settings).run();
  }

  /** One metastore table: its name, input format and whether it reads the table read-optimized. */
  private record Target(String name, String inputFormat, boolean readOptimized) {
  }

  private List<String> run() {
    List<InstantInfo> commits = completedCommits();
    if (commits.isEmpty()) {
      // no schema and no partitions yet: Hudi's sync has nothing to read either
      return List.of();
    }
    Schema schema = table.schema();
    String db = settings.database();
    try (Metastore ms = Metastore.connect(settings.metastoreUris())) {
      if (ms.database(db).isEmpty()) {
        if (!settings.autoCreateDatabase()) {
          throw SluiceException.badConfig("hoodie.datasource.hive_sync.database", db,
              "a database that exists in the metastore at " + ms.uri()
                  + " (or hoodie.datasource.hive_sync.auto_create_database=true)");
        }
        ms.createDatabase(db);
        changes.add("created database " + db);
      }
      for (Target t : targets()) {
        syncTable(ms, t, schema, commits);
      }
    }
    return List.copyOf(changes);
  }

  private List<Target> targets() {
    String name = settings.table();
    if (table.type() == TableType.COPY_ON_WRITE) {
      return List.of(new Target(name, PARQUET_INPUT, false));
    }
    List<Target> out = new ArrayList<>();
    out.add(new Target(settings.skipRoSuffix() ? name : name + "_ro", PARQUET_INPUT, true));
    out.add(new Target(name + "_rt", REALTIME_INPUT, false));
    if (settings.snapshotWithTableName() && !settings.skipRoSuffix()) {
      out.add(new Target(name, REALTIME_INPUT, false));
    }
    return out;
  }

  private void syncTable(Metastore ms, Target target, Schema schema, List<InstantInfo> commits) {
    String db = settings.database();
    String qualified = db + "." + target.name();
    Map<String, String> columns = HiveTypes.columns(schema, settings.supportTimestamp());
    List<FieldSchema> dataCols = new ArrayList<>();
    columns.forEach((n, type) -> {
      if (!settings.partitionFields().contains(n)) {
        dataCols.add(new FieldSchema(n, type, ""));
      }
    });
    List<FieldSchema> partitionCols = settings.partitionFields().stream()
        .map(p -> new FieldSchema(p, columns.getOrDefault(p, "string"), "")).toList();
    Map<String, String> tableProps = tableProperties(schema);
    Map<String, String> serdeProps = serdeProperties(target);

    Optional<Table> existing = ms.table(db, target.name());
    Table t;
    Optional<String> lastSynced;
    if (existing.isEmpty()) {
      t = newTable(target, dataCols, partitionCols, tableProps, serdeProps);
      ms.createTable(t);
      changes.add("created table " + qualified + " (" + target.inputFormat() + ")");
      t = ms.table(db, target.name()).orElseThrow();
      lastSynced = Optional.empty();
    } else {
      t = existing.get();
      lastSynced = Optional.ofNullable(t.getParameters().get(LAST_COMMIT));
      updateDefinition(ms, t, qualified, dataCols, tableProps, serdeProps);
    }
    if (!partitionCols.isEmpty()) {
      syncPartitions(ms, t, qualified, lastSynced, commits);
    }
    markSynced(ms, db, target.name(), qualified, commits.get(commits.size() - 1));
  }

  private Table newTable(Target target, List<FieldSchema> dataCols, List<FieldSchema> partitionCols,
      Map<String, String> tableProps, Map<String, String> serdeProps) {
    StorageDescriptor sd = new StorageDescriptor();
    sd.setCols(dataCols);
    sd.setInputFormat(target.inputFormat());
    sd.setOutputFormat(PARQUET_OUTPUT);
    sd.setLocation(table.location());
    Map<String, String> serde = new HashMap<>(serdeProps);
    serde.put("serialization.format", "1");
    sd.setSerdeInfo(new SerDeInfo(null, PARQUET_SERDE, serde));
    Table t = new Table();
    t.setDbName(settings.database());
    t.setTableName(target.name());
    t.setOwner(System.getProperty("user.name"));
    t.setCreateTime((int) (System.currentTimeMillis() / 1000));
    t.setSd(sd);
    t.setPartitionKeys(partitionCols);
    // an external table: dropping it in Hive must never delete the Hudi table's files
    t.setTableType("EXTERNAL_TABLE");
    t.putToParameters("EXTERNAL", "TRUE");
    tableProps.forEach(t::putToParameters);
    return t;
  }

  /** Columns (an added column, a widened type) and properties brought to the table's; one alter when any differ. */
  private void updateDefinition(Metastore ms, Table t, String qualified, List<FieldSchema> dataCols,
      Map<String, String> tableProps, Map<String, String> serdeProps) {
    boolean colsChanged = !sameColumns(t.getSd().getCols(), dataCols);
    boolean propsChanged = false;
    for (Map.Entry<String, String> e : tableProps.entrySet()) {
      if (!e.getValue().equals(t.getParameters().get(e.getKey()))) {
        t.putToParameters(e.getKey(), e.getValue());
        propsChanged = true;
      }
    }
    SerDeInfo serde = t.getSd().getSerdeInfo();
    for (Map.Entry<String, String> e : serdeProps.entrySet()) {
      if (serde.getParameters() == null || !e.getValue().equals(serde.getParameters().get(e.getKey()))) {
        serde.putToParameters(e.getKey(), e.getValue());
        propsChanged = true;
      }
    }
    if (colsChanged) {
      List<String> before = t.getSd().getCols().stream().map(FieldSchema::getName).toList();
      t.getSd().setCols(dataCols);
      List<String> added = dataCols.stream().map(FieldSchema::getName).filter(n -> !before.contains(n)).toList();
      changes.add("updated the columns of " + qualified + (added.isEmpty() ? "" : " (added " + added + ")"));
    }
    if (propsChanged) {
      changes.add("updated the table and serde properties of " + qualified);
    }
    if (colsChanged || propsChanged) {
      // cascade: the partitions' own column lists follow the table's
      ms.alterTable(t, colsChanged && !settings.partitionFields().isEmpty());
    }
  }

  private static boolean sameColumns(List<FieldSchema> stored, List<FieldSchema> wanted) {
    if (stored.size() != wanted.size()) {
      return false;
    }
    for (int i = 0; i < stored.size(); i++) {
      // the metastore keeps names in lower case
      if (!stored.get(i).getName().equalsIgnoreCase(wanted.get(i).getName())
          || !stored.get(i).getType().equalsIgnoreCase(wanted.get(i).getType())) {
        return false;
      }
    }
    return true;
  }

  private Map<String, String> tableProperties(Schema schema) {
    Map<String, String> out = new LinkedHashMap<>();
    if (!settings.asDataSource()) {
      return out;
    }
    out.put("spark.sql.sources.provider", "hudi");
    String json = HiveTypes.sparkSchemaJson(schema, settings.partitionFields());
    int parts = (json.length() + SCHEMA_PART_LENGTH - 1) / SCHEMA_PART_LENGTH;
    out.put("spark.sql.sources.schema.numParts", String.valueOf(parts));
    for (int i = 0; i < parts; i++) {
      out.put("spark.sql.sources.schema.part." + i,
          json.substring(i * SCHEMA_PART_LENGTH, Math.min(json.length(), (i + 1) * SCHEMA_PART_LENGTH)));
    }
    List<String> pf = settings.partitionFields();
    if (!pf.isEmpty()) {
      out.put("spark.sql.sources.schema.numPartCols", String.valueOf(pf.size()));
      for (int i = 0; i < pf.size(); i++) {
        out.put("spark.sql.sources.schema.partCol." + i, pf.get(i));
      }
    }
    return out;
  }

  private Map<String, String> serdeProperties(Target target) {
    Map<String, String> out = new LinkedHashMap<>();
    if (settings.asDataSource()) {
      out.put("path", table.location());
      out.put("hoodie.query.as.ro.table", String.valueOf(target.readOptimized()));
    }
    return out;
  }

  /**
   * Hudi's two ways: a full sync (no {@code last_commit_time_sync}, or it has left the active timeline) matches the
   * metastore against every partition folder on storage; an incremental one looks only at the partitions written
   * since, and drops those among them the timeline says were deleted ({@link TimelinePartitions}).
   */
  private void syncPartitions(Metastore ms, Table t, String qualified, Optional<String> lastSynced,
      List<InstantInfo> commits) {
    Map<String, Partition> stored = new HashMap<>();
    for (Partition p : ms.partitions(t.getDbName(), t.getTableName())) {
      stored.put(String.join("/", p.getValues()), p);
    }
    boolean full = lastSynced.isEmpty() || lastSynced.get().compareTo(commits.get(0).time()) < 0;
    List<Partition> add = new ArrayList<>();
    if (full) {
      Set<String> storedToDrop = new LinkedHashSet<>(stored.keySet());
      for (String path : inspection.partitions()) {
        List<String> values = PartitionValues.of(settings.extractor(), path);
        if (!values.isEmpty()) {
          storedToDrop.remove(String.join("/", values));
          addOrMove(ms, t, qualified, stored, path, values, add);
        }
      }
      ms.addPartitions(add);
      // the metastore lists it and storage no longer has its folder
      for (String key : storedToDrop) {
        ms.dropPartition(t.getDbName(), t.getTableName(), stored.get(key).getValues());
        changes.add("dropped partition " + key + " of " + qualified);
      }
      return;
    }
    TimelinePartitions timeline = new TimelinePartitions(inspection, lastSynced.get());
    Set<String> written = timeline.written();
    Set<String> dropped = written.isEmpty() ? Set.of() : timeline.dropped();
    List<List<String>> drop = new ArrayList<>();
    for (String path : written) {
      List<String> values = PartitionValues.of(settings.extractor(), path);
      if (dropped.contains(path)) {
        if (stored.containsKey(String.join("/", values))) {
          drop.add(values);
          changes.add("dropped partition " + path + " of " + qualified);
        }
      } else if (!values.isEmpty()) {
        addOrMove(ms, t, qualified, stored, path, values, add);
      }
    }
    ms.addPartitions(add);
    for (List<String> values : drop) {
      ms.dropPartition(t.getDbName(), t.getTableName(), values);
    }
  }

  /** Queues {@code path} to be added when the metastore lacks it, or moves it when its location differs. */
  private void addOrMove(Metastore ms, Table t, String qualified, Map<String, Partition> stored, String path,
      List<String> values, List<Partition> add) {
    String location = location(path);
    Partition have = stored.get(String.join("/", values));
    if (have == null) {
      add.add(partition(t, values, location));
      changes.add("added partition " + path + " to " + qualified);
    } else if (!samePath(have.getSd().getLocation(), location)) {
      have.getSd().setLocation(location);
      ms.alterPartition(have);
      changes.add("moved partition " + path + " of " + qualified + " to " + location);
    }
  }

  private Partition partition(Table t, List<String> values, String location) {
    StorageDescriptor sd = new StorageDescriptor(t.getSd());
    sd.setLocation(location);
    Partition p = new Partition();
    p.setDbName(t.getDbName());
    p.setTableName(t.getTableName());
    p.setValues(values);
    p.setSd(sd);
    return p;
  }

  private String location(String partitionPath) {
    String base = table.location();
    return base.endsWith("/") ? base + partitionPath : base + "/" + partitionPath;
  }

  /** Whether two locations name the same folder (the metastore may add a scheme such as {@code file:}). */
  private static boolean samePath(String stored, String wanted) {
    return withoutScheme(stored).equals(withoutScheme(wanted));
  }

  private static String withoutScheme(String location) {
    String s = location.replaceFirst("^[a-zA-Z][a-zA-Z0-9+.-]*://[^/]*", "").replaceFirst("^[a-zA-Z][a-zA-Z0-9+.-]*:", "");
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }

  /** Records the last synced commit (and its completion time where the timeline has one) when it moved. */
  private void markSynced(Metastore ms, String db, String name, String qualified, InstantInfo last) {
    Table t = ms.table(db, name).orElseThrow(() -> SluiceException.conflict("Syncing " + qualified,
        "the table disappeared from the metastore during the sync"));
    Map<String, String> want = new LinkedHashMap<>();
    want.put(LAST_COMMIT, last.time());
    inspection.completionTime(last.time()).ifPresent(c -> want.put(LAST_COMMIT_COMPLETION, c));
    boolean differs = want.entrySet().stream().anyMatch(e -> !e.getValue().equals(t.getParameters().get(e.getKey())));
    if (differs) {
      want.forEach(t::putToParameters);
      ms.alterTable(t, false);
      changes.add("marked " + qualified + " synced to commit " + last.time());
    }
  }

  private List<InstantInfo> completedCommits() {
    return inspection.timeline().stream().filter(i -> i.isCompleted() && isCommit(i)).toList();
  }

  static boolean isCommit(InstantInfo i) {
    return i.action().equals("commit") || i.action().equals("deltacommit") || i.action().equals("replacecommit");
  }
}
