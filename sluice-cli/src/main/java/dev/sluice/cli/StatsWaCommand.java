package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.CommitInfo;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.Tables;
import dev.sluice.tools.health.CommitStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice stats wa}: write amplification per completed commit (hudi-cli {@code stats wa}): Hudi's figure
 * (records written over records updated), and bytes written per changed record.
 */
@Command(name = "wa", description = "Write amplification per commit: records inserted, updated, deleted and written, "
    + "Hudi's factor (written / updated), bytes written, bytes per changed record and Sluice's byte write "
    + "amplification (docs/cli.md); then all commits together (hudi-cli: stats wa).")
final class StatsWaCommand implements Callable<Integer> {
  static final List<String> COLUMNS = List.of("commitTime", "action", "operation", "inserted", "updated", "deleted",
      "written", "waf", "bytesWritten", "bytesPerRecord", "writeAmplification");

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Mixin
  ViewOptions view;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    List<ObjectNode> rows = rows(t.inspect());
    ObjectNode doc = Json.object();
    doc.put("table", t.location());
    view.printWithTotals(spec.commandLine().getOut(), doc, rows, COLUMNS, totals(rows));
    return 0;
  }

  /** One row per completed commit of the active timeline, oldest first; {@code sluice report} charts the same rows. */
  static List<ObjectNode> rows(TableInspection store) {
    List<ObjectNode> rows = new ArrayList<>();
    for (Map.Entry<String, CommitInfo> e : store.completedCommits().entrySet()) {
      String action = store.find(e.getKey()).map(InstantInfo::action).orElse("commit");
      CommitStats c = CommitStats.of(e.getKey(), action, e.getValue(), e.getValue().compacted());
      ObjectNode r = Json.object();
      r.put("commitTime", c.instantTime());
      r.put("action", c.action());
      r.put("operation", c.operation());
      r.put("inserted", c.inserted());
      r.put("updated", c.updated());
      r.put("deleted", c.deleted());
      r.put("written", c.recordsWritten());
      // Hudi's factor: records written over records updated (what a Copy-on-Write merge rewrites per update)
      r.set("waf", round(c.hudiWriteAmplification()));
      r.put("bytesWritten", c.bytesWritten());
      r.set("bytesPerRecord", ratio(c.bytesWritten(), c.inserted() + c.updated() + c.deleted()));
      r.set("writeAmplification", round(c.writeAmplification()));
      rows.add(r);
    }
    return rows;
  }

  /** The row of all commits together. */
  static ObjectNode totals(List<ObjectNode> rows) {
    long inserted = 0;
    long updated = 0;
    long deleted = 0;
    long written = 0;
    long bytes = 0;
    for (ObjectNode r : rows) {
      inserted += r.get("inserted").asLong();
      updated += r.get("updated").asLong();
      deleted += r.get("deleted").asLong();
      written += r.get("written").asLong();
      bytes += r.get("bytesWritten").asLong();
    }
    ObjectNode total = Json.object();
    total.put("commitTime", "ALL");
    total.put("inserted", inserted);
    total.put("updated", updated);
    total.put("deleted", deleted);
    total.put("written", written);
    total.set("waf", ratio(written, updated));
    total.put("bytesWritten", bytes);
    total.set("bytesPerRecord", ratio(bytes, inserted + updated + deleted));
    return total;
  }

  /** {@code a / b} to two decimals; null when nothing is divided by. */
  static com.fasterxml.jackson.databind.JsonNode ratio(long a, long b) {
    return b == 0 ? Json.tree(null) : Json.tree(Math.round(100.0 * a / b) / 100.0);
  }

  private static com.fasterxml.jackson.databind.JsonNode round(OptionalDouble d) {
    return d.isPresent() ? Json.tree(Math.round(100.0 * d.getAsDouble()) / 100.0) : Json.tree(null);
  }
}
