package dev.sluice.spark;

import dev.sluice.api.DistributedWrite;
import dev.sluice.api.FileRef;
import dev.sluice.api.IndexLookup;
import dev.sluice.api.KeyLocation;
import dev.sluice.api.WireRecord;
import dev.sluice.api.WriteContext;
import dev.sluice.api.WriteUnits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * Step 2 of a distributed write, tagging: for each prepared record, the base file (of {@link Result#files}) whose
 * file group holds its key, as the engine's index of the table ({@link DistributedWrite#index}) would find it.
 * <ul>
 *   <li>BLOOM, SIMPLE: each key against the base files of its own partition;</li>
 *   <li>GLOBAL_BLOOM, GLOBAL_SIMPLE (and RECORD_INDEX without a usable record index): each key against the base
 *       files of every partition;</li>
 *   <li>RECORD_INDEX: the keys grouped by record-index shard, one lookup per shard in a task; a location in a file
 *       group the write does not see is looked up again in every partition's base files, as the engine does.</li>
 * </ul>
 * A key is sent to a file only if the file's key range holds it (bloom indexes with range pruning); the task per file
 * checks its bloom filter, then its key column. A key a global index finds in another partition than its record's is
 * tagged by the engine's rule ({@link WriteUnits#tagFound}): moved (a delete there, an insert here) or updated there.
 */
final class Tagging {
  private static final char SEP = '\u0000';

  private Tagging() {
  }

  /**
   * What tagging found.
   *
   * @param files the base files records are tagged to (by index)
   * @param tagged each record with the index of its file in {@code files}, -1 for an insert
   * @param cached RDDs tagging persisted, to unpersist once {@code tagged} is no longer needed
   */
  record Result(List<FileRef> files, JavaRDD<SluiceSpark.Tagged> tagged, List<JavaRDD<?>> cached) {
    Result(List<FileRef> files, JavaRDD<SluiceSpark.Tagged> tagged) {
      this(files, tagged, List.of());
    }
  }

  /** Tags {@code prepared}, the write's prepared (and combined) records; a bulk insert looks nothing up. */
  static Result tag(DistributedWrite dw, WriteContext ctx, JavaRDD<WireRecord> prepared, boolean bulk,
      JavaSparkContext jsc) {
    if (bulk) {
      return new Result(List.of(), prepared.map(w -> new SluiceSpark.Tagged(-1, w)));
    }
    IndexLookup index = dw.index();
    if (index.recordIndex()) {
      return byRecordIndex(dw, ctx, prepared, index.recordIndexShards(), jsc);
    }
    if (index.global()) {
      List<FileRef> files = dw.baseFiles(dw.partitions());
      return new Result(files, global(ctx, prepared, files, jsc));
    }
    // each task's distinct partitions, collected without distinct's shuffle
    List<String> partitions = prepared.mapPartitions(ws -> {
      Set<String> seen = new HashSet<>();
      ws.forEachRemaining(w -> seen.add(w.partitionPath()));
      return seen.iterator();
    }).collect().stream().distinct().toList();
    List<FileRef> files = dw.baseFiles(partitions);
    if (files.isEmpty()) {
      return new Result(files, prepared.map(w -> new SluiceSpark.Tagged(-1, w)));
    }
    Map<String, List<Integer>> filesOf = new HashMap<>();
    for (int i = 0; i < files.size(); i++) {
      filesOf.computeIfAbsent(files.get(i).partitionPath(), k -> new ArrayList<>()).add(i);
    }
    JavaPairRDD<String, Integer> found = lookUp(ctx, prepared.flatMapToPair(w -> candidates(files,
        filesOf.getOrDefault(w.partitionPath(), List.of()), w.key()).iterator()), files, jsc, false);
    // the records cross the join's shuffle as bytes (WireBytes)
    JavaRDD<SluiceSpark.Tagged> tagged = prepared
        .mapToPair(w -> new Tuple2<>(w.partitionPath() + SEP + w.key(), WireBytes.of(w)))
        .leftOuterJoin(found).values().map(t -> new SluiceSpark.Tagged(t._2().orElse(-1), WireBytes.record(t._1())));
    return new Result(files, tagged);
  }

  /** Each key against every partition's base {@code files}, then the engine's rule for a key found elsewhere. */
  private static JavaRDD<SluiceSpark.Tagged> global(WriteContext ctx, JavaRDD<WireRecord> records,
      List<FileRef> files, JavaSparkContext jsc) {
    if (files.isEmpty()) {
      return records.map(w -> new SluiceSpark.Tagged(-1, w));
    }
    List<Integer> all = new ArrayList<>(files.size());
    for (int i = 0; i < files.size(); i++) {
      all.add(i);
    }
    JavaPairRDD<String, Integer> found = lookUp(ctx, records.flatMapToPair(w -> candidates(files, all, w.key())
        .iterator()), files, jsc, true);
    return foundAt(ctx, records, found, files);
  }

  /**
   * The (file, key) pairs worth a check: {@code key} against each of {@code candidates} (indexes into
   * {@code files}) whose key range may hold it.
   */
  private static List<Tuple2<Integer, String>> candidates(List<FileRef> files, List<Integer> candidates, String key) {
    List<Tuple2<Integer, String>> out = new ArrayList<>();
    for (int i : candidates) {
      if (files.get(i).mayHold(key)) {
        out.add(new Tuple2<>(i, key));
      }
    }
    return out;
  }

  /**
   * Checks {@code pairs} one task per group of files: the keys each file holds, by partition and key (by key alone
   * if {@code global}: a key is unique then; found twice, the engine's rule picks the file with the live copy).
   */
  private static JavaPairRDD<String, Integer> lookUp(WriteContext ctx, JavaPairRDD<Integer, String> pairs,
      List<FileRef> files, JavaSparkContext jsc, boolean global) {
    JavaPairRDD<String, Integer> found = pairs
        .groupByKey(Math.max(1, Math.min(files.size(), jsc.defaultParallelism() * 2)))
        .flatMapToPair(e -> {
          FileRef f = files.get(e._1());
          List<String> keys = new ArrayList<>();
          e._2().forEach(keys::add);
          return Units.of(ctx).keysInFile(f, keys).stream()
              .map(k -> new Tuple2<>(global ? k : f.partitionPath() + SEP + k, e._1())).iterator();
        });
    return global ? found.reduceByKey((a, b) -> WriteUnits.holdsTheLiveCopy(files.get(b), files.get(a)) ? b : a)
        : found;
  }

  /** {@code records} with the files their keys were {@code found} in (by key), through the engine's global rule. */
  private static JavaRDD<SluiceSpark.Tagged> foundAt(WriteContext ctx, JavaRDD<WireRecord> records,
      JavaPairRDD<String, Integer> found, List<FileRef> files) {
    return records.mapToPair(w -> new Tuple2<>(w.key(), WireBytes.of(w))).leftOuterJoin(found).values().flatMap(t -> {
      WireRecord w = WireBytes.record(t._1());
      if (!t._2().isPresent()) {
        return List.of(new SluiceSpark.Tagged(-1, w)).iterator();
      }
      int file = t._2().get();
      List<SluiceSpark.Tagged> out = new ArrayList<>(2);
      for (Map.Entry<WireRecord, Boolean> e : Units.of(ctx).tagFound(w, files.get(file))) {
        out.add(new SluiceSpark.Tagged(e.getValue() ? file : -1, e.getKey()));
      }
      return out.iterator();
    });
  }

  /**
   * The keys looked up in the record index, one task per shard; then the base files of the partitions the found
   * keys live in. Keys whose location names a file group without a base file in the write's view are looked up
   * again in every partition's base files (then those are the files).
   */
  private static Result byRecordIndex(DistributedWrite dw, WriteContext ctx, JavaRDD<WireRecord> records, int shards,
      JavaSparkContext jsc) {
    JavaRDD<KeyLocation> located = records
        .mapToPair(w -> new Tuple2<>(WriteUnits.recordIndexShard(w.key(), shards), w.key()))
        .groupByKey(Math.max(1, Math.min(shards, jsc.defaultParallelism() * 2)))
        .flatMap(e -> {
          // a shard's keys, distinct (a write that does not combine may carry a key twice)
          Set<String> keys = new TreeSet<>();
          e._2().forEach(keys::add);
          return Units.of(ctx).recordLocations(new ArrayList<>(keys)).iterator();
        }).persist(StorageLevel.MEMORY_AND_DISK());
    List<JavaRDD<?>> cached = List.of(located);
    List<String> partitions = located.map(KeyLocation::partitionPath).distinct().collect();
    List<FileRef> files = dw.baseFiles(partitions);
    Map<String, Integer> fileOf = indexByFileGroup(files);
    JavaPairRDD<String, Integer> at = located.mapToPair(l -> new Tuple2<>(l.key(),
        fileOf.getOrDefault(l.partitionPath() + SEP + l.fileId(), -1)));
    long stale = at.filter(e -> e._2() < 0).count();
    if (stale > 0) {
      // the engine re-checks such keys in the base files (it trusts no location it cannot see); so does this write,
      // against every partition's files, the other keys keeping their record-index locations
      List<FileRef> everywhere = dw.baseFiles(dw.partitions());
      Map<String, Integer> fileOfAll = indexByFileGroup(everywhere);
      JavaPairRDD<String, Integer> trusted = located.mapToPair(l -> new Tuple2<>(l.key(),
          fileOfAll.getOrDefault(l.partitionPath() + SEP + l.fileId(), -1))).filter(e -> e._2() >= 0);
      JavaRDD<String> staleKeys = at.filter(e -> e._2() < 0).keys();
      JavaPairRDD<String, WireRecord> byKey = records.mapToPair(w -> new Tuple2<>(w.key(), w));
      JavaRDD<WireRecord> recheck = byKey.join(staleKeys.mapToPair(k -> new Tuple2<>(k, true))).values()
          .map(Tuple2::_1);
      JavaRDD<WireRecord> rest = byKey.subtractByKey(staleKeys.mapToPair(k -> new Tuple2<>(k, true))).values();
      JavaRDD<SluiceSpark.Tagged> tagged = foundAt(ctx, rest, trusted, everywhere)
          .union(global(ctx, recheck, everywhere, jsc));
      return new Result(everywhere, tagged, cached);
    }
    return new Result(files, foundAt(ctx, records, at, files), cached);
  }

  /** Each file's index in {@code files}, by partition and file id. */
  private static Map<String, Integer> indexByFileGroup(List<FileRef> files) {
    Map<String, Integer> out = new HashMap<>();
    for (int i = 0; i < files.size(); i++) {
      out.put(files.get(i).partitionPath() + SEP + files.get(i).fileId(), i);
    }
    return out;
  }
}
