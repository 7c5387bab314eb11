package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.Tables;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.StoragePaths;
import dev.sluice.tools.health.TableHealth;
import dev.sluice.tools.health.TableStats;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice report}: one self-contained HTML page of a table's health (docs/report.md). The figures are those of
 * {@code sluice stats --json}, {@code timeline --json}, {@code stats wa} and {@code stats filesizes}, gathered by the
 * same code and embedded as one JSON document that the page's own script draws as SVG charts.
 */
@Command(name = "report", description = "Write a health report of a table as one self-contained HTML page (no network "
    + "at view time): timeline chart, heat map of file groups by partition, write amplification per commit, read "
    + "amplification, file-size histogram and the warnings of 'sluice stats' (docs/report.md).")
final class ReportCommand implements Callable<Integer> {
  /** The version of the embedded JSON document's shape. */
  static final int FORMAT = 1;

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--html", required = true, paramLabel = "FILE", description = "The HTML file to write (replaced if "
      + "it exists; its folder must exist).")
  Path html;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Path parent = html.toAbsolutePath().getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      throw SluiceException.badInput("the command line", "--html " + html, "its folder does not exist",
          "a file in an existing folder");
    }
    if (Files.isDirectory(html)) {
      throw SluiceException.badInput("the command line", "--html " + html, "it is a folder",
          "a file name, e.g. report.html");
    }
    Table t = Tables.open(table, common.config());
    Clock clock = Clock.systemUTC();
    ObjectNode data = data(t, TableHealth.of(t, clock), clock);
    byte[] page = ReportPage.html(data).getBytes(StandardCharsets.UTF_8);
    try {
      Files.write(html, page);
    } catch (IOException e) {
      throw SluiceException.storage("write", html.toString(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf("wrote %s (%,d bytes): %d instants, %d file groups, %d warnings%n", html, page.length,
        data.get("timeline").size(), data.get("stats").get("slices").size(), data.get("stats").get("warnings").size());
    out.flush();
    return 0;
  }

  /** The report's figures: one JSON document, embedded in the page as {@code sluice-report-data}. */
  static ObjectNode data(Table t, TableStats stats, Clock clock) {
    TableInspection store = t.inspect();
    ObjectNode doc = Json.object();
    doc.put("format", FORMAT);
    doc.put("generatedAt", clock.instant().toString());
    doc.put("table", t.location());
    doc.put("tableType", stats.tableType().name());
    doc.put("tableVersion", t.tableVersion());
    doc.put("timelineZone", store.timelineZone().getId());
    doc.set("stats", StatsCommand.document(t, stats));
    doc.set("timeline", timeline(t, store));
    ObjectNode wa = doc.putObject("writeAmplification");
    List<ObjectNode> waRows = StatsWaCommand.rows(store);
    wa.set("rows", Json.tree(waRows));
    wa.set("totals", StatsWaCommand.totals(waRows));
    ObjectNode sizes = doc.putObject("fileSizes");
    ArrayNode sizeRows = sizes.putArray("rows");
    List<Long> all = new ArrayList<>();
    StatsFileSizesCommand.sizes(store, false).forEach((commit, s) -> {
      sizeRows.add(StatsFileSizesCommand.row(commit, s));
      all.addAll(s);
    });
    sizes.set("totals", StatsFileSizesCommand.row("ALL", all));
    return doc;
  }

  /**
   * The instants of {@code timeline --json}, each with when it started (its instant time as a clock time), when it
   * completed (versions 8/9: its completion time; version 6: the modification time of its completed instant file)
   * and the difference, in epoch milliseconds; null where not known (pending instants, fixed instant times).
   */
  private static ArrayNode timeline(Table t, TableInspection store) {
    ArrayNode instants = (ArrayNode) TimelineCommand.json(t, store, false).get("instants");
    Map<String, Long> completedFiles = store.tableVersion() >= 8 ? Map.of() : completedFileTimes(t);
    List<InstantInfo> all = store.timeline();
    for (int i = 0; i < instants.size(); i++) {
      ObjectNode e = (ObjectNode) instants.get(i);
      InstantInfo instant = all.get(i);
      Optional<Long> start = InstantInfo.clockTime(instant.time(), store.timelineZone()).map(java.time.Instant::toEpochMilli);
      Optional<Long> end = Optional.empty();
      if (instant.isCompleted()) {
        JsonNode completion = e.get("completionTime");
        end = completion != null && completion.isTextual()
            ? InstantInfo.clockTime(completion.asText(), store.timelineZone()).map(java.time.Instant::toEpochMilli)
            : Optional.ofNullable(completedFiles.get(instant.time() + "." + instant.action()));
      }
      e.set("startMillis", Json.tree(start));
      e.set("endMillis", Json.tree(end));
      e.set("durationMillis", start.isPresent() && end.isPresent() ? Json.tree(Math.max(0, end.get() - start.get()))
          : Json.tree(null));
    }
    return instants;
  }

  /** Version 6: the modification times of the completed instant files in {@code .hoodie/}, by file name. */
  private static Map<String, Long> completedFileTimes(Table t) {
    String dir = StoragePaths.join(t.location(), ".hoodie");
    Map<String, Long> out = new HashMap<>();
    try {
      for (FileInfo f : t.storage().list(dir)) {
        if (!f.directory()) {
          out.put(f.name(), f.modificationTime());
        }
      }
    } catch (IOException e) {
      throw SluiceException.storage("list", dir, e);
    }
    return out;
  }
}
