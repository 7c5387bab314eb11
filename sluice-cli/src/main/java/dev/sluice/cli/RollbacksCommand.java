package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.RollbackInfo;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.Tables;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice rollbacks}: the completed rollbacks on the active timeline (hudi-cli {@code show rollbacks}), or with
 * an instant each file that rollback deleted or gave a rollback block, per partition (hudi-cli
 * {@code show rollback}), read from the rollbacks' completed instant metadata.
 */
@Command(name = "rollbacks", description = "List the completed rollbacks: what each rolled back and how many files it "
    + "deleted (hudi-cli: show rollbacks); with INSTANT, per partition each file it deleted, failed to delete or "
    + "appended a rollback block to (hudi-cli: show rollback).")
final class RollbacksCommand implements Callable<Integer> {
  static final List<String> ROLLBACK_COLUMNS = List.of("instant", "rolledBack", "actions", "totalFilesDeleted",
      "rollbackLogFiles", "partitions");
  static final List<String> FILE_COLUMNS = List.of("partition", "file", "outcome", "size");

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Parameters(index = "1", arity = "0..1", paramLabel = "INSTANT", description = "A completed rollback's instant "
      + "time: show its files.")
  String instant;

  @Mixin
  ViewOptions view;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    TableInspection store = t.inspect();
    return instant == null ? list(t, store) : files(t, store);
  }

  private int list(Table t, TableInspection store) {
    List<ObjectNode> rows = new ArrayList<>();
    for (InstantInfo i : store.timeline()) {
      Optional<RollbackInfo> md = store.rollbackMetadata(i);
      if (md.isEmpty()) {
        continue;
      }
      RollbackInfo r = md.get();
      ObjectNode row = Json.object();
      row.put("instant", i.time());
      row.set("rolledBack", Json.tree(r.commitsRollback()));
      row.set("actions", Json.tree(r.instantsRollback().stream().map(RollbackInfo.Target::action).toList()));
      row.put("totalFilesDeleted", r.totalFilesDeleted());
      row.put("rollbackLogFiles", r.rollbackLogFiles());
      row.put("partitions", r.partitions().size());
      rows.add(row);
    }
    view.printActions(spec.commandLine().getOut(), t, rows, ROLLBACK_COLUMNS, "rollbacks");
    return 0;
  }

  private int files(Table t, TableInspection store) {
    InstantInfo rollback = ViewOptions.completedInstant(store, instant, "INSTANT", "a rollback 'sluice rollbacks' lists");
    RollbackInfo md = store.rollbackMetadata(rollback).orElseThrow(() -> SluiceException.badInput("the command line",
        "INSTANT", "the instant " + instant + " is a " + rollback.action() + ", not a rollback",
        "a rollback 'sluice rollbacks' lists"));
    List<ObjectNode> rows = new ArrayList<>();
    for (RollbackInfo.Partition p : md.partitions()) {
      for (String f : p.successDeleteFiles()) {
        rows.add(file(p, f, "deleted", null));
      }
      for (String f : p.failedDeleteFiles()) {
        rows.add(file(p, f, "not deleted", null));
      }
      for (Map.Entry<String, Long> f : p.rollbackLogFiles().entrySet()) {
        rows.add(file(p, f.getKey(), "rollback block", f.getValue()));
      }
    }
    List<ObjectNode> shown = view.apply(rows, FILE_COLUMNS);
    PrintWriter out = spec.commandLine().getOut();
    if (view.json) {
      ObjectNode doc = ViewOptions.header(t);
      doc.put("instant", instant);
      doc.set("rolledBack", Json.tree(md.instantsRollback()));
      doc.put("rowCount", rows.size());
      doc.set("rows", Json.tree(shown));
      doc.putObject("totals").put("partitions", md.partitions().size()).put("totalFilesDeleted", md.totalFilesDeleted())
          .put("rollbackLogFiles", md.rollbackLogFiles());
      Json.print(out, doc);
      return 0;
    }
    out.printf("rollback %s of %s%n", instant, String.join(", ", md.instantsRollback().stream()
        .map(x -> x.action() + " " + x.commitTime()).toList()));
    TextTable.print(out, FILE_COLUMNS, shown);
    out.printf("total: %d partitions, %,d files deleted, %d log files given a rollback block%n", md.partitions().size(),
        md.totalFilesDeleted(), md.rollbackLogFiles());
    out.flush();
    return 0;
  }

  private static ObjectNode file(RollbackInfo.Partition p, String file, String outcome, Long size) {
    ObjectNode r = Json.object();
    r.put("partition", p.partitionPath());
    r.put("file", file);
    r.put("outcome", outcome);
    r.set("size", Json.tree(size));
    return r;
  }
}
