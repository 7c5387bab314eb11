package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.bench.measure.Dirs;
import dev.sluice.bench.measure.StepArgs;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The SCALE workload (driver side): per table size and engine, a table is loaded once per load profile (Sluice's
 * RECORD_INDEX table is loaded with the metadata table and its record index on, every other index shares a table
 * loaded without them), then every index of that profile runs its upserts on its own copy of it, in a fresh worker
 * JVM. Prints one {@code SCALE} line per size, engine and index, then how the upsert time grows with the table
 * ({@code SCALE-GROWTH}) and Sluice against Hudi's best index at each size ({@code SCALE-VS-HUDI}).
 */
final class ScaleBench {
  private static final String RECORD_INDEX = "RECORD_INDEX";

  private final BenchOptions o;
  private final PrintStream out;
  private final Path tables;
  private final Map<String, String> common;
  private final ChildJvm jvm;
  private final Map<String, ChildJvm.Side> sides;
  /** Results by records, engine, index. */
  private final Map<Long, Map<String, Map<String, Result>>> results = new LinkedHashMap<>();
  /** Digest of each upsert batch by records and rep, to check both engines got the same input. */
  private final Map<String, String> digests = new HashMap<>();
  private boolean ok = true;

  /** One engine and index at one size; a failure leaves {@code failure} set and the numbers absent. */
  private record Result(Optional<JsonNode> load, List<JsonNode> upserts, Optional<JsonNode> check,
      Optional<String> failure) {
  }

  ScaleBench(BenchOptions o, PrintStream out, Path tables, Map<String, String> common, ChildJvm jvm,
      Map<String, ChildJvm.Side> sides) {
    this.o = o;
    this.out = out;
    this.tables = tables;
    this.common = Map.copyOf(common);
    this.jvm = jvm;
    this.sides = Map.copyOf(sides);
  }

  /** Runs every size, engine and index; false if a worker failed, a check did not hold or inputs differed. */
  boolean run() {
    BenchOptions.ScaleWorkload s = o.scaleWorkload();
    out.printf(Locale.ROOT, "SCALE workload: sizes %s, loads in commits of %,d records, %d upsert(s) of %,d existing "
            + "keys, %s table, Sluice indexes %s, Hudi indexes %s%n", s.records(), s.chunk(), o.reps(), s.upsert(),
        s.type(), s.sluiceIndexes(), s.hudiIndexes());
    for (long n : s.records()) {
      for (String engine : List.of(BenchResults.SLUICE, BenchResults.HUDI)) {
        if (!o.runs(engine)) {
          continue;
        }
        Map<String, List<String>> profiles = new LinkedHashMap<>();
        for (String index : s.indexes(engine)) {
          profiles.computeIfAbsent(index.equals(RECORD_INDEX) ? "ri" : "plain", p -> new ArrayList<>()).add(index);
        }
        profiles.forEach((profile, indexes) -> profile(n, engine, profile, indexes));
      }
    }
    print();
    return ok;
  }

  /** Loads the table of one profile, then runs each of its indexes on a copy (the last on the table itself). */
  private void profile(long n, String engine, String profile, List<String> indexes) {
    BenchOptions.ScaleWorkload s = o.scaleWorkload();
    Path base = tables.resolve("scale-" + n).resolve(engine + "-" + profile);
    Map<String, String> a = args(n, indexes.get(0));
    a.put("table", base.toString());
    a.put("chunk", Long.toString(s.chunk()));
    a.put("label", "load");
    ChildJvm.Outcome load = jvm.run(sides.get(engine), StepArgs.format("scale-load", a), List.of());
    line(n, engine, "load (" + String.join("/", indexes) + ")", load);
    if (!load.ok() || load.reports().isEmpty()) {
      indexes.forEach(i -> put(n, engine, i, new Result(Optional.empty(), List.of(), Optional.empty(),
          Optional.of("load failed, log " + load.log()))));
      Dirs.delete(base);
      ok = false;
      return;
    }
    JsonNode loaded = load.reports().get(0);
    for (int k = 0; k < indexes.size(); k++) {
      String index = indexes.get(k);
      boolean last = k == indexes.size() - 1;
      Path table = last ? base : base.resolveSibling(engine + "-" + profile + "-" + index);
      if (!last) {
        Dirs.copy(base, table);
      }
      Map<String, String> u = args(n, index);
      u.put("table", table.toString());
      u.put("count", Integer.toString(s.upsert()));
      u.put("reps", Integer.toString(o.reps()));
      u.put("label", "upsert");
      ChildJvm.Outcome r = jvm.run(sides.get(engine), StepArgs.format("scale-upserts", u), List.of());
      line(n, engine, "upserts " + index, r);
      List<JsonNode> upserts = new ArrayList<>();
      Optional<JsonNode> check = Optional.empty();
      for (JsonNode report : r.reports()) {
        if (report.path("label").asText().equals("upsert-check")) {
          check = Optional.of(report);
        } else {
          upserts.add(report);
          String key = n + "/" + report.path("rep").asLong();
          String digest = report.path("digest").asText();
          String seen = digests.putIfAbsent(key, digest);
          if (seen != null && !seen.equals(digest)) {
            out.println("  SCALE inputs differ at " + key + ": " + seen + " vs " + digest);
            ok = false;
          }
        }
      }
      boolean checked = check.map(c -> c.path("rows_ok").asBoolean()).orElse(false);
      ok &= r.ok() && checked;
      put(n, engine, index, new Result(Optional.of(loaded), upserts, check,
          r.ok() ? Optional.empty() : Optional.of("worker exit " + r.exitCode() + ", log " + r.log())));
      Dirs.delete(table);
    }
    Dirs.delete(base);
  }

  private Map<String, String> args(long n, String index) {
    Map<String, String> a = new LinkedHashMap<>(common);
    a.put("records", Long.toString(n));
    a.put("index", index);
    a.put("type", o.scaleWorkload().type());
    if (o.scaleWorkload().type().equals("mor")) {
      // as for the other MoR workloads: with a BLOOM index Hudi would rewrite small base files instead of logging
      a.put("small-file-limit", "0");
    }
    return a;
  }

  private void put(long n, String engine, String index, Result r) {
    results.computeIfAbsent(n, k -> new LinkedHashMap<>()).computeIfAbsent(engine, k -> new LinkedHashMap<>())
        .put(index, r);
  }

  private void line(long n, String engine, String what, ChildJvm.Outcome r) {
    StringBuilder b = new StringBuilder();
    for (JsonNode rep : r.reports()) {
      b.append(b.length() == 0 ? "" : "; ").append(rep.path("label").asText());
      if (rep.has("seconds")) {
        b.append(String.format(Locale.ROOT, " %.2f s, peak heap %.0f MB (live %.0f MB)",
            rep.path("seconds").asDouble(), mb(rep, "peak_heap"), mb(rep, "peak_live")));
      }
      if (rep.has("commits")) {
        b.append(String.format(Locale.ROOT, ", %d commits (%s s), %.0f MB, generating the records %.1f s",
            rep.path("commits").asLong(), rep.path("commit_seconds").asText(), mb(rep, "bytes"),
            rep.path("gen_seconds").asDouble()));
      }
      if (rep.has("rows_ok")) {
        b.append(String.format(Locale.ROOT, " %d rows (expected %d), ts sum %s, read %.1f s",
            rep.path("rows").asLong(), rep.path("expected_rows").asLong(),
            rep.path("rows_ok").asBoolean() ? "right" : "WRONG", rep.path("read_seconds").asDouble()));
      }
    }
    out.printf(Locale.ROOT, "  scale %,d %-6s %-28s %s (JVM %.0f s)%n", n, engine, what,
        r.ok() ? b : "FAILED (exit " + r.exitCode() + ", log " + r.log() + ")", r.wallSeconds());
    out.flush();
    if (!r.ok()) {
      System.err.println(ChildJvm.tail(r.log(), 30));
    }
  }

  private void print() {
    out.println();
    out.printf(Locale.ROOT, "SCALE, seconds (upsert: median of %d), peak heap MB in use / live after GC (-Xmx%s):%n",
        o.reps(), o.heap());
    out.printf(Locale.ROOT, "%12s %-7s %-13s %9s %9s %-26s %13s %15s %s%n", "records", "engine", "index", "load s",
        "upsert s", "upsert runs", "load heap", "upsert heap", "rows");
    results.forEach((n, engines) -> engines.forEach((engine, indexes) -> indexes.forEach((index, r) -> {
      String runs = String.join(" ", r.upserts().stream().map(u -> String.format(Locale.ROOT, "%.2f",
          u.path("seconds").asDouble())).toList());
      String rows = r.failure().map(f -> "FAILED: " + f).orElse(r.check().map(c -> c.path("rows_ok").asBoolean()
          ? "ok" : "WRONG " + c.path("rows").asLong()).orElse("unchecked"));
      out.printf(Locale.ROOT, "%,12d %-7s %-13s %9s %9s %-26s %13s %15s %s%n", n, engine, index,
          r.load().map(l -> fmt(l.path("seconds").asDouble())).orElse("-"), median(r).map(ScaleBench::fmt).orElse("-"),
          runs, r.load().map(l -> heap(l)).orElse("-"), peakHeap(r), rows);
      out.printf(Locale.ROOT, "SCALE records=%d engine=%s index=%s load_s=%s upsert_s=%s upsert_runs=%s "
              + "load_peak_heap_mb=%s load_peak_live_mb=%s upsert_peak_heap_mb=%s upsert_peak_live_mb=%s "
              + "gen_s=%s rows_ok=%s upsert_cpu_s=%s%n", n, engine, index,
          r.load().map(l -> fmt(l.path("seconds").asDouble())).orElse("n/a"),
          median(r).map(ScaleBench::fmt).orElse("n/a"), runs.isEmpty() ? "n/a" : runs.replace(' ', ','),
          r.load().map(l -> fmt0(mb(l, "peak_heap"))).orElse("n/a"),
          r.load().map(l -> fmt0(mb(l, "peak_live"))).orElse("n/a"), maxMb(r, "peak_heap"), maxMb(r, "peak_live"),
          r.load().map(l -> fmt(l.path("gen_seconds").asDouble())).orElse("n/a"),
          r.failure().isEmpty() && r.check().map(c -> c.path("rows_ok").asBoolean()).orElse(false),
          median(r, "cpu_seconds").map(ScaleBench::fmt).orElse("n/a"));
    })));
    growth();
  }

  /** Upsert time at the largest size over the smallest, per engine and index; Sluice against Hudi's best. */
  private void growth() {
    List<Long> sizes = new ArrayList<>(results.keySet());
    if (sizes.size() >= 2) {
      long small = sizes.get(0);
      long large = sizes.get(sizes.size() - 1);
      results.get(small).forEach((engine, indexes) -> indexes.forEach((index, r) -> {
        Optional<Result> l = Optional.ofNullable(results.get(large).getOrDefault(engine, Map.of()).get(index));
        out.printf(Locale.ROOT, "SCALE-GROWTH engine=%s index=%s records=%d..%d upsert_ratio=%s cpu_ratio=%s%n", engine,
            index, small, large, ratio(median(r, "seconds"), l.flatMap(x -> median(x, "seconds"))),
            ratio(median(r, "cpu_seconds"), l.flatMap(x -> median(x, "cpu_seconds"))));
      }));
    }
    results.forEach((n, engines) -> {
      Optional<Map.Entry<String, Double>> best = engines.getOrDefault(BenchResults.HUDI, Map.of()).entrySet().stream()
          .flatMap(e -> median(e.getValue()).map(m -> Map.entry(e.getKey(), m)).stream())
          .min(Map.Entry.comparingByValue());
      engines.getOrDefault(BenchResults.SLUICE, Map.of()).forEach((index, r) -> {
        Optional<Double> m = median(r);
        out.printf(Locale.ROOT, "SCALE-VS-HUDI records=%d sluice_index=%s sluice_s=%s hudi_best=%s hudi_s=%s "
                + "speedup=%s%n", n, index, m.map(ScaleBench::fmt).orElse("n/a"),
            best.map(Map.Entry::getKey).orElse("n/a"), best.map(e -> fmt(e.getValue())).orElse("n/a"),
            m.isPresent() && best.isPresent() ? fmt(best.get().getValue() / m.get()) : "n/a");
      });
    });
  }

  private static String ratio(Optional<Double> small, Optional<Double> large) {
    return small.isPresent() && large.isPresent() && small.get() > 0 ? fmt(large.get() / small.get()) : "n/a";
  }

  private static Optional<Double> median(Result r) {
    return median(r, "seconds");
  }

  /** The median of the upserts' {@code field} (seconds, or the worker's CPU seconds). */
  private static Optional<Double> median(Result r, String field) {
    if (r.failure().isPresent() || r.upserts().isEmpty() || r.upserts().stream().anyMatch(u -> !u.has(field))) {
      return Optional.empty();
    }
    List<Double> s = new ArrayList<>(r.upserts().stream().map(u -> u.path(field).asDouble()).sorted().toList());
    int k = s.size();
    return Optional.of(k % 2 == 1 ? s.get(k / 2) : (s.get(k / 2 - 1) + s.get(k / 2)) / 2);
  }

  private static String peakHeap(Result r) {
    return r.upserts().isEmpty() ? "-" : maxMb(r, "peak_heap") + " / " + maxMb(r, "peak_live");
  }

  private static String maxMb(Result r, String field) {
    return r.upserts().isEmpty() ? "n/a"
        : fmt0(r.upserts().stream().mapToDouble(u -> mb(u, field)).max().orElse(0));
  }

  private static String heap(JsonNode load) {
    return fmt0(mb(load, "peak_heap")) + " / " + fmt0(mb(load, "peak_live"));
  }

  private static double mb(JsonNode r, String field) {
    return r.path(field).asDouble() / 1048576.0;
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  private static String fmt0(double v) {
    return String.format(Locale.ROOT, "%.0f", v);
  }
}
