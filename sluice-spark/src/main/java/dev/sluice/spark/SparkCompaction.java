package dev.sluice.spark;

import dev.sluice.api.CompactedSlice;
import dev.sluice.api.CompactionInfo;
import dev.sluice.api.CompactionScheduling;
import dev.sluice.api.CompactionSlice;
import dev.sluice.api.CompactionUnits;
import dev.sluice.api.Table;
import dev.sluice.api.TableCompaction;
import dev.sluice.api.Tables;
import dev.sluice.api.WriteToken;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Compaction of a Merge-on-Read table on Spark: the driver picks (or schedules) the plan and completes the instant
 * through {@link TableCompaction#runWith}; Spark runs one task per operation
 * (file slice), each through {@link CompactionUnits#compact} under its attempt's own write token.
 */
final class SparkCompaction {
  /** {@code true}: with nothing pending, schedule a plan of every slice with log files whatever the trigger says. */
  static final String FORCE = "sluice.spark.compact.force";

  private SparkCompaction() {
  }

  static SparkCompactionResult run(SparkSession spark, String tablePath, Optional<String> instant,
      Map<String, String> options) {
    Map<String, String> engine = new HashMap<>(options);
    boolean force = Boolean.parseBoolean(engine.getOrDefault(FORCE, "false"));
    engine.remove(FORCE);
    try (Table table = Tables.open(tablePath, SparkOptions.of(engine).config())) {
      TableCompaction compaction = table.compaction();
      Optional<String> time = instant;
      Optional<CompactionScheduling> scheduling = Optional.empty();
      if (time.isEmpty()) {
        List<String> pending = compaction.pending();
        if (pending.isEmpty()) {
          CompactionScheduling s = compaction.attemptSchedule(force);
          scheduling = Optional.of(s);
          time = s.instant();
        } else {
          time = Optional.of(pending.get(0));
        }
      }
      if (time.isEmpty()) {
        return new SparkCompactionResult(Optional.empty(),
            scheduling.map(CompactionScheduling::explanation).orElse(""));
      }
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      CompactionInfo info = compaction.runWith(time.get(), slices -> compact(jsc, slices));
      return new SparkCompactionResult(Optional.of(info), scheduling.isPresent() ? "scheduled and ran " + info.instantTime()
          : "ran the pending compaction " + info.instantTime());
    }
  }

  /** One Spark task per slice; each result is the attempt Spark kept. */
  private static List<CompactedSlice> compact(JavaSparkContext jsc, List<CompactionSlice> slices) {
    if (slices.isEmpty()) {
      return List.of();
    }
    // n elements in n partitions: one slice per task
    // the slices go to the tasks as Java-serialized bytes: a parallelized collection's elements travel through the
    // session's serializer, and Kryo cannot make Java records (JavaBytes)
    return jsc.parallelize(slices.stream().map(JavaBytes::of).toList(), slices.size()).mapPartitions(it -> {
      TaskContext tc = TaskContext.get();
      List<CompactedSlice> out = new ArrayList<>(1);
      while (it.hasNext()) {
        CompactionSlice s = JavaBytes.read(it.next(), CompactionSlice.class);
        CompactionUnits.compact(s, new WriteToken(s.index(), tc.stageId(), tc.taskAttemptId())).ifPresent(out::add);
      }
      return out.stream().map(JavaBytes::of).iterator();
    }).collect().stream().map(b -> JavaBytes.read(b, CompactedSlice.class)).toList();
  }
}
