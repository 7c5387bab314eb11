package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.CommitInfo;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.Tables;
import dev.sluice.api.WriteStatInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice stats filesizes}: per completed commit the distribution of the sizes of the base files it wrote
 * (hudi-cli {@code stats filesizes}), from the commit metadata's write stats, and one row over all commits.
 */
@Command(name = "filesizes", description = "Per commit on the active timeline, the sizes of the base files it wrote: "
    + "count, min, percentiles, average, max, standard deviation; then all commits together (hudi-cli: stats "
    + "filesizes). With --logs, log files too (their size after the append).")
final class StatsFileSizesCommand implements Callable<Integer> {
  static final List<String> COLUMNS = List.of("commitTime", "files", "min", "p10", "p50", "avg", "p90", "p95", "max",
      "stdDev");

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--logs", description = "Count the log files appended to as well (Hudi counts base files only).")
  boolean logs;

  @Mixin
  ViewOptions view;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    Map<String, List<Long>> sizes = sizes(t.inspect(), logs);
    List<ObjectNode> rows = new ArrayList<>();
    sizes.forEach((commit, s) -> rows.add(row(commit, s)));
    ObjectNode total = row("ALL", sizes.values().stream().flatMap(List::stream).toList());
    ObjectNode doc = Json.object();
    doc.put("table", t.location());
    doc.put("files", logs ? "base and log" : "base");
    view.printWithTotals(spec.commandLine().getOut(), doc, rows, COLUMNS, total);
    return 0;
  }

  /** Per completed commit, oldest first, the sizes of the files it wrote (log files too if {@code logs}). */
  static Map<String, List<Long>> sizes(TableInspection store, boolean logs) {
    Map<String, List<Long>> out = new LinkedHashMap<>();
    for (Map.Entry<String, CommitInfo> e : store.completedCommits().entrySet()) {
      List<Long> sizes = new ArrayList<>();
      for (WriteStatInfo s : e.getValue().stats()) {
        if (!s.delta() || logs) {
          // the size of the file the write left; stats that do not record it (older writers) count the bytes written
          sizes.add(s.fileSizeInBytes() > 0 ? s.fileSizeInBytes() : s.totalWriteBytes());
        }
      }
      out.put(e.getKey(), sizes);
    }
    return out;
  }

  /** The distribution of {@code sizes} (bytes); percentiles by nearest rank, as a reader checks them by hand. */
  static ObjectNode row(String commit, List<Long> sizes) {
    ObjectNode r = Json.object();
    r.put("commitTime", commit);
    r.put("files", sizes.size());
    if (sizes.isEmpty()) {
      for (String c : COLUMNS.subList(2, COLUMNS.size())) {
        r.putNull(c);
      }
      return r;
    }
    List<Long> sorted = new ArrayList<>(sizes);
    sorted.sort(null);
    double mean = sorted.stream().mapToLong(Long::longValue).average().orElse(0);
    double variance = sorted.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / sorted.size();
    r.put("min", sorted.get(0));
    r.put("p10", percentile(sorted, 10));
    r.put("p50", percentile(sorted, 50));
    r.put("avg", Math.round(mean));
    r.put("p90", percentile(sorted, 90));
    r.put("p95", percentile(sorted, 95));
    r.put("max", sorted.get(sorted.size() - 1));
    r.put("stdDev", Math.round(Math.sqrt(variance)));
    return r;
  }

  /** The nearest-rank percentile of sorted values: the smallest value with at least p% of the values at or below it. */
  static long percentile(List<Long> sorted, int p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }
}
