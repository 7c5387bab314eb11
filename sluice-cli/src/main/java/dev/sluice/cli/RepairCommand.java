package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.RepairItem;
import dev.sluice.api.RepairReport;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice repair TABLE [--apply]}: find damage, and with --apply repair it. */
@Command(name = "repair", description = "Find a table's damage (damaged hoodie.properties, broken instant files, corrupt log "
    + "blocks, files no instant accounts for, stale markers, hidden partitions) and say what a repair does; a dry run "
    + "unless --apply. Files a repair changes are kept in .hoodie/.repair/<time>/.")
final class RepairCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--apply", description = "Make the fixes (default: only report them). Run with no writer running.")
  boolean apply;

  @Option(names = "--json", description = "Print one JSON document (field names in docs/cli.md).")
  boolean json;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    RepairReport r = t.repair(apply);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode doc = Json.object();
      doc.put("table", t.location());
      doc.put("applied", r.applied());
      doc.set("backupFolder", Json.tree(r.backupFolder()));
      ArrayNode items = doc.putArray("findings");
      for (RepairItem i : r.items()) {
        items.addObject().put("kind", i.kind()).put("path", i.path()).put("problem", i.problem()).put("action", i.action())
            .put("fixable", i.fixable()).put("fixed", i.fixed());
      }
      Json.print(out, doc);
      return 0;
    }
    if (r.sound()) {
      out.println("No damage found.");
      out.flush();
      return 0;
    }
    long fixable = r.items().stream().filter(RepairItem::fixable).count();
    for (RepairItem i : r.items()) {
      out.printf("%s  %s%n  problem: %s%n  %s: %s%n", i.kind(), i.path(), i.problem(),
          i.fixed() ? "fixed" : i.fixable() ? "repair" : "not repaired", i.action());
    }
    if (r.applied()) {
      out.printf("%d finding%s, %d fixed%s.%n", r.items().size(), r.items().size() == 1 ? "" : "s", fixable,
          r.backupFolder().map(f -> "; the files changed are kept in " + f).orElse(""));
    } else {
      out.printf("%d finding%s, %d repairable. Dry run: nothing was changed; 'sluice repair %s --apply' makes the fixes.%n",
          r.items().size(), r.items().size() == 1 ? "" : "s", fixable, table);
    }
    out.flush();
    return 0;
  }
}
