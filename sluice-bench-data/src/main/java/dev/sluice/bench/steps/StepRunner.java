package dev.sluice.bench.steps;

import dev.sluice.bench.data.BenchRecords;
import dev.sluice.bench.data.Workloads;
import dev.sluice.bench.measure.CpuClock;
import dev.sluice.bench.measure.DirSnapshot;
import dev.sluice.bench.measure.Dirs;
import dev.sluice.bench.measure.HeapMeter;
import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.measure.StepReport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.avro.generic.GenericRecord;

/**
 * Runs one benchmark step on an {@link Engine} and prints one {@link StepReport} line per measurement. Inputs are
 * generated before the clock starts; the clock covers the engine call only (a write until its commit is complete,
 * a read until its last row is consumed); the table is checked after the clock stops (its snapshot row count and
 * {@code ts} sum). With {@code --warmup W} the same step first runs untimed on a scratch table of {@code W} records,
 * so classes are loaded and hot code compiled before the measured run, for both engines alike.
 *
 * <p>Steps (the driver prepares the table folders):
 * <ul>
 *   <li>{@code setup-base --table T --type cow|mor --records N}: create, bulk insert records {@code 0..N-1}</li>
 *   <li>{@code setup-deltas --table T --records N --batch M --commits 1,5,10 --snapshot-prefix P}: upsert batches
 *       1..max into the base table T, copying it to {@code P<k>} after commit k (each commit is reported)</li>
 *   <li>{@code bulk-insert|insert --table T --type cow|mor --records N --label L}: into a new table</li>
 *   <li>{@code upsert --table T --records N --batch M --label L}: batch 1 into the base table</li>
 *   <li>{@code delete --table T --records N --count D --label L}</li>
 *   <li>{@code read --reads L1=T1@snapshot,L2=T1@ro,...}</li>
 *   <li>{@code compact --table T --label L}</li>
 *   <li>{@code lookup --table T --records N --count K --label L}</li>
 *   <li>{@code scale-load} and {@code scale-upserts}: the scale workload, see {@link ScaleSteps}</li>
 * </ul>
 */
public final class StepRunner {
  /** System property naming a folder for JFR recordings of the measured spans. */
  public static final String JFR_DIR = "bench.jfr.dir";

  private final Engine engine;
  private final PrintStream out;
  private final Workloads workloads;
  private boolean quiet;

  private StepRunner(Engine engine, PrintStream out, long seed) {
    this.engine = engine;
    this.out = out;
    this.workloads = new Workloads(seed);
  }

  /** Runs the step named by {@code args} on {@code engine}, printing report lines to {@code out}. */
  public static void run(StepArgs args, Engine engine, PrintStream out) {
    StepRunner runner = new StepRunner(engine, out, args.getLong("seed", 1));
    long warmup = args.getLong("warmup", 0);
    // the scale steps warm up on their own scratch table (ScaleSteps)
    if (warmup > 0 && !args.step().startsWith("scale-")) {
      runner.warmUp(args, warmup, Path.of(args.get("scratch")));
    }
    runner.step(args);
    out.flush();
  }

  private void step(StepArgs a) {
    String step = a.step();
    switch (step) {
      case "setup-base" -> setupBase(Path.of(a.get("table")), mor(a), a.getLong("records"));
      case "setup-deltas" -> setupDeltas(Path.of(a.get("table")), a.getLong("records"), a.getInt("batch"),
          commits(a), a.get("snapshot-prefix"));
      case "bulk-insert" -> insert(a.get("label"), Path.of(a.get("table")), mor(a), a.getLong("records"),
          Engine.Op.BULK_INSERT);
      case "insert" -> insert(a.get("label"), Path.of(a.get("table")), mor(a), a.getLong("records"), Engine.Op.INSERT);
      case "upsert" -> upsert(a.get("label"), Path.of(a.get("table")), a.getLong("records"), a.getInt("batch"));
      case "delete" -> delete(a.get("label"), Path.of(a.get("table")), a.getLong("records"), a.getInt("count"));
      case "read" -> {
        for (String spec : a.list("reads")) {
          int eq = spec.indexOf('=');
          int at = spec.lastIndexOf('@');
          if (eq <= 0 || at < eq) {
            throw new IllegalArgumentException("--reads wants LABEL=TABLE@snapshot|ro, got " + spec);
          }
          read(spec.substring(0, eq), Path.of(spec.substring(eq + 1, at)), spec.substring(at + 1).equals("snapshot"));
        }
      }
      case "compact" -> compact(a.get("label"), Path.of(a.get("table")));
      case "lookup" -> lookup(a.get("label"), Path.of(a.get("table")), a.getLong("records"), a.getInt("count"));
      case "scale-load", "scale-upserts" -> new ScaleSteps(engine, workloads, out).run(a);
      default -> throw new IllegalArgumentException("unknown step " + step);
    }
  }

  private static boolean mor(StepArgs a) {
    String type = a.get("type");
    if (!type.equals("cow") && !type.equals("mor")) {
      throw new IllegalArgumentException("--type is cow or mor, got " + type);
    }
    return type.equals("mor");
  }

  private static Set<Integer> commits(StepArgs a) {
    Set<Integer> out = new TreeSet<>();
    a.list("commits").forEach(c -> out.add(Integer.parseInt(c)));
    if (out.isEmpty()) {
      throw new IllegalArgumentException("--commits needs at least one commit number");
    }
    return out;
  }

  /** The same step, untimed and unreported, on scratch tables of {@code n} records. */
  private void warmUp(StepArgs a, long n, Path scratch) {
    Path dir = scratch.resolve("warmup-" + engine.name());
    Dirs.delete(dir);
    quiet = true;
    try {
      int batch = (int) Math.max(2, n / 5);
      int count = (int) Math.max(1, n / 10);
      switch (a.step()) {
        case "setup-base" -> {
          // untimed anyway
        }
        case "bulk-insert", "insert" -> insert("warmup", dir.resolve("t"), mor(a), n,
            a.step().equals("insert") ? Engine.Op.INSERT : Engine.Op.BULK_INSERT);
        case "upsert", "delete", "lookup" -> {
          boolean mor = a.find("type").map("mor"::equals).orElse(false);
          setupBase(dir.resolve("t"), mor, n);
          if (a.step().equals("upsert")) {
            upsert("warmup", dir.resolve("t"), n, batch);
          } else if (a.step().equals("delete")) {
            delete("warmup", dir.resolve("t"), n, count);
          } else {
            lookup("warmup", dir.resolve("t"), n, count);
          }
        }
        case "setup-deltas", "read", "compact" -> {
          if (a.step().equals("read") && !engine.upserts()) {
            // no delta commits on plain Parquet: the same reads of bulk-inserted files
            insert("warmup", dir.resolve("t"), false, n, Engine.Op.BULK_INSERT);
            read("warmup", dir.resolve("t"), true);
            read("warmup", dir.resolve("t"), false);
          } else {
            setupBase(dir.resolve("t"), true, n);
            setupDeltas(dir.resolve("t"), n, batch, Set.of(2), dir.resolve("d").toString());
            read("warmup", dir.resolve("d2"), true);
            read("warmup", dir.resolve("d2"), false);
            if (a.step().equals("compact")) {
              compact("warmup", dir.resolve("d2"));
            }
          }
        }
        default -> throw new IllegalArgumentException("unknown step " + a.step());
      }
    } finally {
      quiet = false;
      Dirs.delete(dir);
    }
  }

  private void setupBase(Path table, boolean mor, long n) {
    insert("setup-base", table, mor, n, Engine.Op.BULK_INSERT);
  }

  private void setupDeltas(Path table, long n, int batch, Set<Integer> snapshots, String prefix) {
    int last = snapshots.stream().mapToInt(Integer::intValue).max().orElseThrow();
    for (int b = 1; b <= last; b++) {
      List<GenericRecord> records = workloads.upsert(b, Workloads.sizeAfter(n, b - 1, batch), batch);
      StepReport r = measureWrite("delta-" + b, table, Engine.Op.UPSERT, records);
      if (snapshots.contains(b)) {
        check(r, table);
        Dirs.copy(table, Path.of(prefix + b));
      }
      print(r);
    }
  }

  private void insert(String label, Path table, boolean mor, long n, Engine.Op op) {
    engine.create(table, mor);
    List<GenericRecord> records = workloads.initial(n);
    StepReport r = measureWrite(label, table, op, records);
    print(check(r, table));
  }

  private void upsert(String label, Path table, long n, int batch) {
    List<GenericRecord> records = workloads.upsert(1, n, batch);
    StepReport r = measureWrite(label, table, Engine.Op.UPSERT, records);
    print(check(r, table));
  }

  private void delete(String label, Path table, long n, int count) {
    List<GenericRecord> records = workloads.deletes(n, count);
    StepReport r = measureWrite(label, table, Engine.Op.DELETE, records);
    print(check(r, table));
  }

  private StepReport measureWrite(String label, Path table, Engine.Op op, List<GenericRecord> records) {
    String digest = quiet ? "" : Workloads.digest(records);
    engine.stage(records);
    StepReport r = measure(label, table, () -> {
      engine.write(table, op, records);
      return null;
    });
    return r.put("records", (long) records.size()).put("digest", digest);
  }

  private void read(String label, Path table, boolean snapshot) {
    Engine.ReadResult[] result = new Engine.ReadResult[1];
    engine.prepareRead(table, snapshot);
    StepReport r = measure(label, table, () -> {
      result[0] = engine.read(table, snapshot);
      return null;
    });
    print(r.put("query", snapshot ? "snapshot" : "read_optimized").put("rows", result[0].rows())
        .put("ts_sum", result[0].tsSum()));
  }

  private void compact(String label, Path table) {
    boolean[] done = new boolean[1];
    StepReport r = measure(label, table, () -> {
      done[0] = engine.compact(table);
      return null;
    });
    if (!done[0]) {
      print(new StepReport(label).put("engine", engine.name()).put("missing", "compaction"));
      return;
    }
    print(check(r, table));
  }

  private void lookup(String label, Path table, long n, int count) {
    List<Long> indexes = workloads.lookups(n, count);
    List<String[]> keys = new ArrayList<>(indexes.size());
    BenchRecords gen = workloads.records();
    for (long i : indexes) {
      keys.add(new String[] {gen.key(i), gen.partition(i)});
    }
    long[] stats = new long[3];
    StepReport r = measure(label, table, () -> {
      try (Engine.KeyLookup session = engine.openLookup(table)) {
        long found = 0;
        for (String[] k : keys) {
          if (session.find(k[0], k[1])) {
            found++;
          }
        }
        stats[0] = found;
        stats[1] = session.indexFilesOpened();
        stats[2] = session.dataFilesOpened();
      }
      return null;
    });
    print(r.put("lookups", (long) count).put("rows", stats[0]).put("index_files", stats[1])
        .put("data_files", stats[2]));
  }

  /**
   * Times {@code body} with heap and written bytes; the clock covers {@code body} only. With the system property
   * {@value #JFR_DIR} set, a JFR recording (profile settings) covers the same span and is written there as
   * {@code <engine>-<label>.jfr}.
   */
  private StepReport measure(String label, Path table, Supplier<Void> body) {
    DirSnapshot before = DirSnapshot.of(table);
    HeapMeter heap = new HeapMeter();
    Optional<Profile> profile = quiet ? Optional.empty() : Profile.start(JFR_DIR, engine.name() + "-" + label);
    heap.start();
    long c0 = CpuClock.nanos();
    long t0 = System.nanoTime();
    body.get();
    long t1 = System.nanoTime();
    long c1 = CpuClock.nanos();
    heap.stop();
    profile.ifPresent(Profile::stop);
    return new StepReport(label).put("engine", engine.name()).put("seconds", (t1 - t0) / 1e9)
        .put("cpu_seconds", (c1 - c0) / 1e9).heap(heap).written(before.writtenSince());
  }

  /** Adds the table's snapshot row count and ts sum, read after the measured step. */
  private StepReport check(StepReport r, Path table) {
    if (quiet) {
      return r;
    }
    Engine.ReadResult after = engine.read(table, true);
    return r.put("rows", after.rows()).put("ts_sum", after.tsSum());
  }

  private void print(StepReport r) {
    if (!quiet) {
      out.println(r.line());
      out.flush();
    }
  }
}
