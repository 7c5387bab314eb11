package dev.sluice.bench.steps;

import dev.sluice.bench.data.Workloads;
import dev.sluice.bench.measure.CpuClock;
import dev.sluice.bench.measure.DirSnapshot;
import dev.sluice.bench.measure.Dirs;
import dev.sluice.bench.measure.HeapMeter;
import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.measure.StepReport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.apache.avro.generic.GenericRecord;

/**
 * The scale workload's two steps: load a large table, then time upserts of uniformly scattered existing keys on it.
 *
 * <ul>
 *   <li>{@code scale-load --table T --type cow|mor --records N --chunk C --label L}: creates the table and bulk-inserts
 *       records {@code 0..N-1} in commits of {@code C} records each. The records come from a streaming source
 *       ({@link Workloads#stream}), so no more than one chunk exists at a time, and none at all on an engine that
 *       takes an iterator ({@link Engine#load}). The clock runs over the commits (generating the records included,
 *       on both engines alike: {@code gen_seconds} says what that part costs); the heap meter over the whole load.</li>
 *   <li>{@code scale-upserts --table T --records N --count K --reps R --label L}: upsert batches {@code 1..R}, each
 *       {@code K} distinct existing keys drawn uniformly ({@link Workloads#updates}), one report per batch; then the
 *       table is read once and its rows and {@code ts} sum compared with what the batches must have left
 *       (report {@code L-check}).</li>
 * </ul>
 *
 * <p>With {@code --warmup W}, both first run untimed on a scratch table of {@code W} records (a load in two commits,
 * then, for the upserts, one batch of {@code W / 10} keys), so classes are loaded and hot code compiled.
 */
final class ScaleSteps {
  private final Engine engine;
  private final Workloads workloads;
  private final PrintStream out;

  ScaleSteps(Engine engine, Workloads workloads, PrintStream out) {
    this.engine = engine;
    this.workloads = workloads;
    this.out = out;
  }

  void run(StepArgs a) {
    boolean mor = a.find("type").orElse("mor").equals("mor");
    long warmup = a.getLong("warmup", 0);
    if (warmup > 0) {
      Path scratch = Path.of(a.get("scratch")).resolve("scale-warmup-" + engine.name());
      Dirs.delete(scratch);
      try {
        load(scratch, mor, warmup, Math.max(1, warmup / 2));
        if (a.step().equals("scale-upserts")) {
          upsert(scratch, 1, warmup, (int) Math.max(1, warmup / 10));
        }
      } finally {
        Dirs.delete(scratch);
      }
    }
    Path table = Path.of(a.get("table"));
    long n = a.getLong("records");
    String label = a.get("label");
    if (a.step().equals("scale-load")) {
      print(load(table, mor, n, a.getLong("chunk")).put("label", label));
      return;
    }
    int count = a.getInt("count");
    int reps = a.getInt("reps");
    for (int b = 1; b <= reps; b++) {
      print(upsert(table, b, n, count).put("label", label).put("rep", (long) b));
    }
    long t0 = System.nanoTime();
    Engine.ReadResult after = engine.read(table, true);
    double readSeconds = (System.nanoTime() - t0) / 1e9;
    long expectedTs = workloads.tsSumAfterUpdates(n, reps, count);
    print(new StepReport(label + "-check").put("engine", engine.name()).put("rows", after.rows())
        .put("ts_sum", after.tsSum()).put("expected_rows", n).put("expected_ts_sum", expectedTs)
        .put("rows_ok", after.rows() == n && after.tsSum() == expectedTs).put("read_seconds", readSeconds));
  }

  /** Creates {@code table} and loads records {@code 0..n-1} in bulk-insert commits of {@code chunk} records. */
  private StepReport load(Path table, boolean mor, long n, long chunk) {
    if (chunk < 1) {
      throw new IllegalArgumentException("--chunk must be at least 1, got " + chunk);
    }
    engine.create(table, mor);
    DirSnapshot before = DirSnapshot.of(table);
    HeapMeter heap = new HeapMeter();
    heap.start();
    long nanos = 0;
    StringBuilder commits = new StringBuilder();
    for (long from = 0; from < n; from += chunk) {
      Iterator<GenericRecord> records = workloads.stream(from, Math.min(n, from + chunk));
      long t0 = System.nanoTime();
      engine.load(table, records);
      long took = System.nanoTime() - t0;
      nanos += took;
      commits.append(commits.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.2f", took / 1e9));
    }
    heap.stop();
    // what generating the records took inside those commits: the same source, drained on its own
    long g0 = System.nanoTime();
    long first = Math.min(n, chunk);
    Iterator<GenericRecord> gen = workloads.stream(0, first);
    long hash = 0;
    while (gen.hasNext()) {
      hash += gen.next().hashCode();
    }
    double genSeconds = (System.nanoTime() - g0) / 1e9 * n / first;
    return new StepReport("scale-load").put("engine", engine.name()).put("seconds", nanos / 1e9)
        .put("records", n).put("commits", (long) ((n + chunk - 1) / chunk)).put("commit_seconds", commits.toString())
        .put("gen_seconds", genSeconds).put("gen_hash", hash).heap(heap).written(before.writtenSince());
  }

  /** Upsert batch {@code batch}: {@code count} existing keys of a table of {@code n}; timed from the call to commit. */
  private StepReport upsert(Path table, int batch, long n, int count) {
    List<GenericRecord> records = workloads.updates(batch, n, count);
    DirSnapshot before = DirSnapshot.of(table);
    HeapMeter heap = new HeapMeter();
    heap.start();
    long c0 = CpuClock.nanos();
    long t0 = System.nanoTime();
    engine.write(table, Engine.Op.UPSERT, records);
    long t1 = System.nanoTime();
    long c1 = CpuClock.nanos();
    heap.stop();
    return new StepReport("scale-upsert").put("engine", engine.name()).put("seconds", (t1 - t0) / 1e9)
        .put("cpu_seconds", (c1 - c0) / 1e9)
        .put("records", (long) records.size()).put("digest", Workloads.digest(records)).heap(heap)
        .written(before.writtenSince());
  }

  private void print(StepReport r) {
    out.println(r.line());
    out.flush();
  }
}
