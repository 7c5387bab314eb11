package dev.sluice.spark;

import dev.sluice.api.CloseableIterator;
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
import org.apache.avro.Schema;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
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
    return openOrCreate(df.schema(), tablePath, o);
  }

  /** Creates the table at {@code tablePath} for rows of {@code columns} (a SQL {@code CREATE TABLE}'s columns). */
  static Table createTable(StructType columns, String tablePath, SparkOptions o) {
    return openOrCreate(columns, tablePath, o);
  }

  private static Table openOrCreate(StructType columns, String tablePath, SparkOptions o) {
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
        .hiveStyle(o.hiveStyle()).schema(RowRecords.schemaOf(columns, o.tableName()));
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
      // 1. prepare (validate, key) in the tasks a record at a time, then combine duplicates across the batch in the
      // shuffle (its map-side combine spills): an input partition is never held whole, whatever its size
      // Spark's internal rows of the plan the Dataset already has: no second analysis, no external Row per record
      StructType struct = df.schema();
      JavaRDD<WireRecord> prepared = df.queryExecution().toRdd().toJavaRDD().mapPartitions(rows -> {
        InternalRowRecords binder = new InternalRowRecords(new Schema.Parser().parse(rowSchemaJson), struct);
        return Units.of(ctx).prepareEach(CloseableIterator.of(rows).map(binder::toRecord));
      });
      // from here on the records are byte arrays in shuffles and in storage (WireBytes), persisted serialized:
      // Spark neither serializes an object per record nor estimates the size of object graphs
      JavaRDD<byte[]> stored;
      if (Units.of(ctx).combines()) {
        stored = prepared.mapToPair(w -> new Tuple2<>(w.combineKey(ctx.globalIndex()), WireBytes.of(w)))
            .reduceByKey((a, b) -> WireBytes.of(Units.of(ctx).combine(WireBytes.record(a), WireBytes.record(b))))
            .values();
      } else {
        stored = prepared.map(WireBytes::of);
      }
      stored = stored.persist(StorageLevel.MEMORY_AND_DISK_SER());
      persisted.add(stored);
      if (op == WriteOperation.BULK_INSERT) {
        return bulk(dw, ctx, stored);
      }

      // 2. tag: each key against the base files the index names (its partition's, every partition's, or the record
      //    index's locations), one task per file; a bulk insert looks nothing up (Tagging)
      Tagging.Result tags = Tagging.tag(dw, ctx, stored.map(WireBytes::record), false, jsc);
      persisted.addAll(tags.cached());
      List<FileRef> files = tags.files();
      // deletes of keys the table does not hold are dropped. With no base file in the batch's partitions (a first
      // load by insert) every record is an insert, and the prepared bytes (tagged to no file) serve as they are:
      // no tagged copy
      JavaRDD<byte[]> taggedBytes;
      if (files.isEmpty()) {
        taggedBytes = stored.filter(b -> !WireBytes.delete(b));
      } else {
        taggedBytes = tags.tagged().filter(t -> t.file() >= 0 || !t.record().delete())
            .map(t -> WireBytes.of(t.file(), t.record())).persist(StorageLevel.MEMORY_AND_DISK_SER());
        persisted.add(taggedBytes);
      }
      JavaRDD<Tagged> tagged = taggedBytes.map(WireBytes::tagged);

      // 3. plan on the driver from the counts (one pass, collected without a shuffle; it samples the inserts too)
      List<BatchStats> stats = stats(tagged);
      Map<FileGroupKey, Long> updates = new HashMap<>();
      BatchStats.updates(stats).forEach((file, n) -> {
        FileRef f = files.get(file);
        updates.put(new FileGroupKey(f.partitionPath(), f.fileId()), n);
      });
      Map<String, Long> inserts = BatchStats.inserts(stats);
      List<FileGroupTask> tasks = dw.plan(updates, inserts);
      if (tasks.isEmpty()) {
        return dw.publish(List.of());
      }

      // 4. route: updates to their file group's task. Inserts that only new file groups take (no small file must
      //    get an exact share: a first load, a Merge-on-Read upsert with the small-file limit at 0, partitions whose
      //    files are all full) go by key range in the write's one shuffle, as a bulk insert's do. Otherwise they
      //    are ranked in (partition, key) order, then go to the tasks of their partition in plan order (each takes
      //    the next inserts, as the engine hands them out). The ranks are exact: the inserts are sorted in key
      //    ranges cut from the sample, and each range's first rank is the count of the inserts below it (a pass
      //    over the persisted records, not over the sorted shuffle)
      Routes routes = Routes.of(tasks, files, inserts);
      JavaPairRDD<String, byte[]> updateRoutes = updates.isEmpty() ? null : taggedBytes
          .filter(b -> WireBytes.file(b) >= 0)
          .mapToPair(b -> new Tuple2<>(Routes.updateKey(routes.taskOfFile(WireBytes.file(b)), WireBytes.key(b)), b));
      JavaPairRDD<String, byte[]> insertRoutes = null;
      if (!inserts.isEmpty()) {
        JavaRDD<byte[]> insertBytes = taggedBytes.filter(b -> WireBytes.file(b) < 0);
        boolean newGroupsOnly = tasks.stream().filter(t -> t.inserts() > 0)
            .allMatch(t -> t.kind() == FileGroupTask.Kind.CREATE);
        insertRoutes = newGroupsOnly ? byRange(insertBytes, Routes.BulkRanges.of(tasks, stats))
            : ranked(insertBytes, stats, inserts, routes, jsc.defaultParallelism());
      }
      JavaPairRDD<String, byte[]> routed = updateRoutes == null ? insertRoutes
          : insertRoutes == null ? updateRoutes : updateRoutes.union(insertRoutes);

      // 5. one task per file group (writeFileGroups); 6. the one commit, on the driver
      return dw.publish(writeFileGroups(ctx, tasks, routed));
    } finally {
      persisted.forEach(JavaRDD::unpersist);
    }
  }

  /**
   * A bulk insert in one job after the counting pass: the plan from the exact counts, then each insert straight to
   * the new file group whose key range (cut from the sample at the plan's shares) holds it, sorted by key within
   * it; no global sort and no ranking pass. A file group may get slightly more or fewer records than planned; the
   * create handle's size rule still bounds every file.
   */
  private static CommitResult bulk(DistributedWrite dw, WriteContext ctx, JavaRDD<byte[]> prepared) {
    List<BatchStats> stats = stats(prepared.map(WireBytes::tagged));
    List<FileGroupTask> tasks = dw.plan(Map.of(), BatchStats.inserts(stats));
    if (tasks.isEmpty()) {
      return dw.publish(List.of());
    }
    return dw.publish(writeFileGroups(ctx, tasks, byRange(prepared, Routes.BulkRanges.of(tasks, stats))));
  }

  /**
   * One task per file group of {@code tasks}, its {@code routed} records sorted by route key (updates, then inserts
   * by key) and written by the engine's handle as this attempt; the tasks' results, collected.
   */
  private static List<FileWriteWire> writeFileGroups(WriteContext ctx, List<FileGroupTask> tasks,
      JavaPairRDD<String, byte[]> routed) {
    return routed.repartitionAndSortWithinPartitions(new Routes.TaskPartitioner(tasks.size()))
        .mapPartitionsWithIndex((i, it) -> FileGroupTasks.write(ctx, tasks.get(i), it), false)
        .map(JavaBytes::of).collect().stream().map(b -> JavaBytes.read(b, FileWriteWire.class)).toList();
  }

  /** The inserts with the route keys of the new file groups whose key ranges hold them. */
  private static JavaPairRDD<String, byte[]> byRange(JavaRDD<byte[]> inserts, Routes.BulkRanges ranges) {
    return inserts.mapToPair(b -> {
      String key = WireBytes.key(b);
      return new Tuple2<>(Routes.insertKey(ranges.taskOf(WireBytes.partitionPath(b), key), key), b);
    });
  }

  private static List<BatchStats> stats(JavaRDD<Tagged> tagged) {
    int capacity = BatchStats.sampleSize(tagged.getNumPartitions());
    return tagged.mapPartitionsWithIndex((i, it) -> List.of(JavaBytes.of(BatchStats.of(it, capacity, i))).iterator(),
        true).collect().stream().map(b -> JavaBytes.read(b, BatchStats.class)).toList();
  }

  /**
   * The inserts with their route keys: sorted in key ranges (about one per core) cut from the sample, each range's
   * records ranked from the exact count of the inserts in the ranges before it.
   */
  private static JavaPairRDD<String, byte[]> ranked(JavaRDD<byte[]> inserts, List<BatchStats> stats,
      Map<String, Long> insertCounts, Routes routes, int parallelism) {
    double[] fractions = new double[Math.max(0, parallelism - 1)];
    for (int i = 0; i < fractions.length; i++) {
      fractions[i] = (i + 1.0) / parallelism;
    }
    String[] cuts = BatchStats.cuts(stats, insertCounts.keySet(), fractions);
    long[] perRange = inserts.mapPartitions(ws -> {
      long[] n = new long[cuts.length + 1];
      ws.forEachRemaining(b -> n[BatchStats.rangeOf(cuts, BatchStats.sortKey(WireBytes.partitionPath(b),
          WireBytes.key(b)))]++);
      return List.of(n).iterator();
    }).reduce((a, b) -> {
      long[] sum = a.clone();
      for (int i = 0; i < sum.length; i++) {
        sum[i] += b[i];
      }
      return sum;
    });
    long[] first = new long[perRange.length];
    for (int i = 1; i < first.length; i++) {
      first[i] = first[i - 1] + perRange[i - 1];
    }
    return inserts.mapToPair(b -> new Tuple2<>(BatchStats.sortKey(WireBytes.partitionPath(b), WireBytes.key(b)), b))
        .repartitionAndSortWithinPartitions(new Routes.CutPartitioner(cuts))
        .mapPartitionsWithIndex((range, it) -> {
          long[] rank = {first[range]};
          return CloseableIterator.of(it).map(e -> {
            String key = WireBytes.key(e._2());
            String path = WireBytes.partitionPath(e._2());
            return new Tuple2<>(Routes.insertKey(routes.taskOfInsert(path, rank[0]++), key), e._2());
          });
        }, true)
        .mapToPair(e -> e);
  }

  /** A prepared record and the candidate file that holds its key ({@code -1}: none, an insert). */
  record Tagged(int file, WireRecord record) implements java.io.Serializable {
  }
}
