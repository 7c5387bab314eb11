package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.CleanInfo;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.Tables;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice cleans}: the completed cleans on the active timeline (hudi-cli {@code cleans show}), or with an
 * instant what that clean deleted per partition (hudi-cli {@code clean showpartitions}), read from each clean's
 * completed instant metadata.
 */
@Command(name = "cleans", description = "List the completed cleans and what each deleted (hudi-cli: cleans show); with "
    + "INSTANT, per partition the files that clean deleted and failed to delete (hudi-cli: clean showpartitions).")
final class CleansCommand implements Callable<Integer> {
  static final List<String> CLEAN_COLUMNS = List.of("instant", "earliestCommitToRetain", "lastCompletedCommit",
      "totalFilesDeleted", "failedDeletes", "partitions", "timeTakenMillis");
  static final List<String> PARTITION_COLUMNS = List.of("partition", "policy", "deleted", "failed", "deletedFiles",
      "failedFiles");

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Parameters(index = "1", arity = "0..1", paramLabel = "INSTANT", description = "A completed clean's instant time: "
      + "show its partitions.")
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
    return instant == null ? list(t, store) : partitions(t, store);
  }

  private int list(Table t, TableInspection store) {
    List<ObjectNode> rows = new ArrayList<>();
    for (InstantInfo i : store.timeline()) {
      Optional<CleanInfo> md = store.cleanMetadata(i);
      if (md.isEmpty()) {
        continue;
      }
      CleanInfo c = md.get();
      ObjectNode r = Json.object();
      r.put("instant", i.time());
      r.set("earliestCommitToRetain", Json.tree(c.earliestCommitToRetain()));
      r.set("lastCompletedCommit", Json.tree(c.lastCompletedCommit()));
      r.put("totalFilesDeleted", c.totalFilesDeleted());
      r.put("failedDeletes", c.failedDeletes());
      r.put("partitions", c.partitions().size());
      r.put("timeTakenMillis", c.timeTakenMillis());
      rows.add(r);
    }
    view.printActions(spec.commandLine().getOut(), t, rows, CLEAN_COLUMNS, "cleans");
    return 0;
  }

  private int partitions(Table t, TableInspection store) {
    InstantInfo clean = ViewOptions.completedInstant(store, instant, "INSTANT", "a clean 'sluice cleans' lists");
    CleanInfo md = store.cleanMetadata(clean).orElseThrow(() -> SluiceException.badInput("the command line", "INSTANT",
        "the instant " + instant + " is a " + clean.action() + (clean.action().equals("clean") ? " with empty metadata"
            : ", not a clean"), "a clean 'sluice cleans' lists"));
    List<ObjectNode> rows = new ArrayList<>();
    for (CleanInfo.Partition p : md.partitions()) {
      ObjectNode r = Json.object();
      r.put("partition", p.partitionPath());
      r.put("policy", p.policy());
      r.put("deleted", p.successDeleteFiles().size());
      r.put("failed", p.failedDeleteFiles().size());
      r.set("deletedFiles", Json.tree(p.successDeleteFiles()));
      r.set("failedFiles", Json.tree(p.failedDeleteFiles()));
      rows.add(r);
    }
    List<ObjectNode> shown = view.apply(rows, PARTITION_COLUMNS);
    PrintWriter out = spec.commandLine().getOut();
    if (view.json) {
      ObjectNode doc = ViewOptions.header(t);
      doc.put("instant", instant);
      doc.set("earliestCommitToRetain", Json.tree(md.earliestCommitToRetain()));
      doc.set("lastCompletedCommit", Json.tree(md.lastCompletedCommit()));
      doc.put("rowCount", rows.size());
      doc.set("rows", Json.tree(shown));
      doc.putObject("totals").put("partitions", rows.size()).put("totalFilesDeleted", md.totalFilesDeleted())
          .put("failedDeletes", md.failedDeletes());
      Json.print(out, doc);
      return 0;
    }
    out.printf("clean %s: earliest commit retained %s, last completed commit %s%n", instant,
        md.earliestCommitToRetain().orElse("-"), md.lastCompletedCommit().orElse("-"));
    TextTable.print(out, PARTITION_COLUMNS, shown);
    out.printf("total: %d partitions, %,d files deleted, %d not deleted%n", rows.size(), md.totalFilesDeleted(),
        md.failedDeletes());
    out.flush();
    return 0;
  }
}
