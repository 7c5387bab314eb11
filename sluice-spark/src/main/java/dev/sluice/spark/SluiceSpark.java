package dev.sluice.spark;

import dev.sluice.api.CommitResult;
import dev.sluice.api.DistributedWrite;
import dev.sluice.api.FileGroupKey;
import dev.sluice.api.FileGroupTask;
import dev.sluice.api.FileRef;
import dev.sluice.api.FileWriteWire;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.Tables;
import dev.sluice.api.WireRecord;
import dev.sluice.api.WriteContext;
import dev.sluice.api.WriteOperation;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.storage.Storages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * Writes a Spark Dataset to a Hudi table with Sluice's engine, distributed: Spark's tasks prepare and combine the
 * records, look their keys up in the candidate base files, and write each planned file group (one task per file
 * group, through {@link dev.sluice.api.WriteUnits}); the driver begins the instant, plans from the counts and
 * publishes the one commit ({@link DistributedWrite}). Options take Hudi's datasource names ({@link SparkOptions});
 * a missing table is created from the Dataset's schema. A failed or repeated task attempt writes files under its
 * own write token, and the publish deletes the base files of attempts whose results the driver did not take.
 */
public final class SluiceSpark {
  private static final char SEP = '\u0000';

  private SluiceSpark() {
  }

  /** Upserts {@code df} into the table at {@code tablePath} (created if missing) and commits once. */
  public static CommitResult upsert(Dataset<Row> df, String tablePath, Map<String, String> options) {
    return write(WriteOperation.UPSERT, df, tablePath, SparkOptions.of(options));
  }

  /** Inserts {@code df} (keys the index finds are updated, as Hudi's insert does). */
  public static CommitResult insert(Dataset<Row> df, String tablePath, Map<String, String> options) {
    return write(WriteOperation.INSERT, df, tablePath, SparkOptions.of(options));
  }

  /**
   * Bulk-inserts {@code df}, as the engine's {@code Table.bulkInsert} does: no index lookup (keys already in the
   * table are not found, so a key written again is a duplicate, as in Hudi), no small-file packing (only new file
   * groups, sized as the engine sizes them), the records sorted by partition path and key across the whole Dataset
   * (Hudi's {@code GLOBAL_SORT}) and written by one task per new file group; one commit, operation
   * {@code bulk_insert}.
   */
  public static CommitResult bulkInsert(Dataset<Row> df, String tablePath, Map<String, String> options) {
    return write(WriteOperation.BULK_INSERT, df, tablePath, SparkOptions.of(options));
  }

  /** Deletes the keys of {@code df}'s rows (full rows, or the record key and partition columns). */
  public static CommitResult delete(Dataset<Row> df, String tablePath, Map<String, String> options) {
    return write(WriteOperation.DELETE, df, tablePath, SparkOptions.of(options));
  }

  /** Writes {@code df} with the operation {@code hoodie.datasource.write.operation} names (default upsert). */
  public static CommitResult write(Dataset<Row> df, String tablePath, Map<String, String> options) {
    SparkOptions o = SparkOptions.of(options);
    return write(o.operation(), df, tablePath, o);
  }

  /**
   * Runs a compaction of the Merge-on-Read table at {@code tablePath} on Spark, one task per file slice of its plan:
   * the oldest pending plan (Sluice's or Hudi's), or, with none pending, one scheduled here if the trigger
   * ({@code hoodie.compact.inline.trigger.strategy}) fires or {@code sluice.spark.compact.force=true}. The driver
   * completes the instant as {@code Table.compaction().run} does (commit metadata, metadata table, markers); the
   * result says why nothing ran when nothing did. Other options go to the engine.
   */
  public static SparkCompactionResult compact(SparkSession spark, String tablePath, Map<String, String> options) {
    return SparkCompaction.run(spark, tablePath, Optional.empty(), options);
  }

  /** Runs the pending compaction at {@code instantTime} on Spark, as {@link #compact(SparkSession, String, Map)}. */
  public static SparkCompactionResult compact(SparkSession spark, String tablePath, String instantTime,
      Map<String, String> options) {
    return SparkCompaction.run(spark, tablePath, Optional.of(instantTime), options);
  }

  /** The table schema Sluice-on-Spark creates a table with for a Dataset of {@code df}'s schema. */
  public static Schema tableSchema(Dataset<Row> df, String tableName) {
    return RowRecords.schemaOf(df.schema(), tableName);
  }

  private static CommitResult write(WriteOperation op, Dataset<Row> df, String tablePath, SparkOptions o) {
    Table table = openOrCreate(df, tablePath, o);
    // columns the table lacks evolve its schema, as Hudi's Spark writer does (a delete needs the key columns only)
    Optional<Schema> declared = op == WriteOperation.DELETE ? Optional.empty()
        : Optional.of(DatasetSchemas.writerSchema(table.schema(), df.schema()));
    try (DistributedWrite dw = DistributedWrite.begin(table, op, declared)) {
      try {
        return run(dw, op, df, op == WriteOperation.DELETE ? table.keySchema() : dw.schema());
      } catch (RuntimeException e) {
        throw dw.abort(e);
      }
    }
  }

  private static Table openOrCreate(Dataset<Row> df, String tablePath, SparkOptions o) {
    Storage storage = Storages.forLocation(tablePath, o.engineOptions());
    String properties = StoragePaths.join(StoragePaths.join(tablePath, ".hoodie"), "hoodie.properties");
    try {
      if (storage.info(properties).isPresent()) {
        return Tables.open(tablePath, o.config());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not look for " + properties, e);
    }
    if (o.tableName().isBlank() || o.recordKey().isEmpty()) {
      throw SluiceException.badConfig(SparkOptions.RECORD_KEY + " / " + SparkOptions.TABLE_NAME, "(missing)",
          "a table name and record key fields to create the table at " + tablePath);
    }
    TableSpec.Builder spec = TableSpec.builder(o.tableName()).type(o.tableType())
        .recordKey(o.recordKey().toArray(String[]::new)).partitionBy(o.partitionPath().toArray(String[]::new))
        .hiveStyle(o.hiveStyle()).schema(RowRecords.schemaOf(df.schema(), o.tableName()));
    o.precombine().ifPresent(spec::precombine);
    o.tableVersion().ifPresent(spec::tableVersion);
    return Tables.create(tablePath, spec.build(), o.config());
  }

  private static CommitResult run(DistributedWrite dw, WriteOperation op, Dataset<Row> df, Schema rowSchema) {
    WriteContext ctx = dw.context();
    String rowSchemaJson = rowSchema.toString();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(df.sparkSession().sparkContext());
    List<JavaRDD<?>> persisted = new ArrayList<>();
    try {
      // 1. prepare (validate, key, combine within each input partition) in the tasks, then combine across them
      JavaRDD<WireRecord> prepared = df.javaRDD().mapPartitions(rows -> {
        RowRecords.Binder binder = new RowRecords.Binder(new Schema.Parser().parse(rowSchemaJson));
        return Units.of(ctx).prepare(new MappedIterator<>(rows, binder::toRecord)).iterator();
      });
      if (Units.of(ctx).combines()) {
        prepared = prepared.mapToPair(w -> new Tuple2<>(w.combineKey(ctx.globalIndex()), w))
            .reduceByKey((a, b) -> Units.of(ctx).combine(a, b)).values();
      }
      prepared = prepared.persist(StorageLevel.MEMORY_AND_DISK());
      persisted.add(prepared);

      // 2. tag: each key against the base files the index names (its partition's, every partition's, or the record
      //    index's locations), one task per file; a bulk insert looks nothing up (Tagging)
      Tagging.Result tags = Tagging.tag(dw, ctx, prepared, op == WriteOperation.BULK_INSERT, jsc);
      persisted.addAll(tags.cached());
      List<FileRef> files = tags.files();
      JavaRDD<Tagged> tagged = tags.tagged();
      // deletes of keys the table does not hold are dropped
      tagged = tagged.filter(t -> t.file() >= 0 || !t.record().delete()).persist(StorageLevel.MEMORY_AND_DISK());
      persisted.add(tagged);

      // 3. plan on the driver from the counts
      Map<String, Long> counts = tagged.mapToPair(t -> new Tuple2<>(t.file() >= 0 ? "u" + t.file()
          : "i" + t.record().partitionPath(), 1L)).reduceByKey(Long::sum).collectAsMap();
      Map<FileGroupKey, Long> updates = new HashMap<>();
      Map<String, Long> inserts = new TreeMap<>();
      counts.forEach((k, n) -> {
        if (k.charAt(0) == 'u') {
          FileRef f = files.get(Integer.parseInt(k.substring(1)));
          updates.put(new FileGroupKey(f.partitionPath(), f.fileId()), n);
        } else {
          inserts.put(k.substring(1), n);
        }
      });
      List<FileGroupTask> tasks = dw.plan(updates, inserts);
      if (tasks.isEmpty()) {
        return dw.publish(List.of());
      }

      // 4. route: updates to their file group's task; inserts ranked in (partition, key) order, then to the tasks
      //    of their partition in plan order (each takes the next inserts, as the engine hands them out)
      Routes routes = Routes.of(tasks, files, inserts);
      JavaPairRDD<String, WireRecord> routed = tagged.filter(t -> t.file() >= 0)
          .mapToPair(t -> new Tuple2<>(Routes.updateKey(routes.taskOfFile(t.file()), t.record().key()), t.record()));
      if (!inserts.isEmpty()) {
        JavaPairRDD<String, WireRecord> ranked = tagged.filter(t -> t.file() < 0)
            .mapToPair(t -> new Tuple2<>(t.record().partitionPath() + SEP + t.record().key(), t.record()))
            .sortByKey()
            .zipWithIndex()
            .mapToPair(e -> new Tuple2<>(Routes.insertKey(routes.taskOfInsert(e._1()._2().partitionPath(), e._2()),
                e._1()._2().key()), e._1()._2()));
        routed = routed.union(ranked);
      }

      // 5. one task per file group, its records sorted (updates, then inserts by key), written as this attempt
      List<FileWriteWire> results = routed
          .repartitionAndSortWithinPartitions(new Routes.TaskPartitioner(tasks.size()))
          .mapPartitionsWithIndex((i, it) -> FileGroupTasks.write(ctx, tasks.get(i), it), false)
          .collect();
      // 6. the one commit, on the driver
      return dw.publish(results);
    } finally {
      persisted.forEach(JavaRDD::unpersist);
    }
  }

  /** A prepared record and the candidate file that holds its key ({@code -1}: none, an insert). */
  record Tagged(int file, WireRecord record) implements java.io.Serializable {
  }
}
