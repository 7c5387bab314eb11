package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.CleanInfo;
import dev.sluice.api.CleanPlanInfo;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice clean}: finish unfinished cleans, then plan and run a clean as the cleaner settings say. */
@Command(name = "clean", description = "Delete file versions that no retained commit needs (Hudi's cleaner; "
    + "policy from hoodie.cleaner.policy, default KEEP_LATEST_COMMITS with hoodie.cleaner.commits.retained=10).")
final class CleanCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--dry-run", description = "Print what a clean would delete now, and change nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print one JSON document (field names in docs/cli.md).")
  boolean json;

  @Mixin
  CommonOptions common;

  @Mixin
  ProgressOptions progress;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    PrintWriter out = spec.commandLine().getOut();
    if (dryRun) {
      CleanPlanInfo plan = t.cleanPreview();
      if (json) {
        Json.print(out, planJson(t, plan));
        return 0;
      }
      out.printf("policy %s, earliest commit to retain %s: %d files to delete%n", plan.policy(),
          plan.earliestInstantToRetain().orElse("-"), plan.fileCount());
      for (Map.Entry<String, List<String>> e : plan.filesToDelete().entrySet()) {
        for (String f : e.getValue()) {
          out.printf("  %s  %s%n", e.getKey().isEmpty() ? "<none>" : e.getKey(), f);
        }
      }
      out.flush();
      return 0;
    }
    List<CleanInfo> result;
    try (ProgressDisplay display = ProgressDisplay.of(progress, spec.commandLine().getErr(), false)) {
      result = t.clean(display);
    }
    if (json) {
      Json.print(out, resultJson(t, result));
      return 0;
    }
    if (result.isEmpty()) {
      out.println("nothing to clean");
    }
    for (CleanInfo md : result) {
      out.printf("clean %s: %d files deleted, %d not deleted, earliest commit retained %s%n", md.startCleanTime(),
          md.totalFilesDeleted(), md.failedDeletes(), md.earliestCommitToRetain().orElse("-"));
    }
    out.flush();
    return 0;
  }

  private static ObjectNode planJson(Table t, CleanPlanInfo plan) {
    ObjectNode doc = Json.object();
    doc.put("table", t.location());
    doc.put("dryRun", true);
    doc.put("policy", plan.policy());
    doc.set("earliestCommitToRetain", Json.tree(plan.earliestInstantToRetain()));
    doc.put("fileCount", plan.fileCount());
    ArrayNode files = doc.putArray("files");
    for (Map.Entry<String, List<String>> e : plan.filesToDelete().entrySet()) {
      for (String f : e.getValue()) {
        files.addObject().put("partition", e.getKey()).put("file", f);
      }
    }
    return doc;
  }

  private static ObjectNode resultJson(Table t, List<CleanInfo> result) {
    ObjectNode doc = Json.object();
    doc.put("table", t.location());
    doc.put("dryRun", false);
    ArrayNode cleans = doc.putArray("cleans");
    for (CleanInfo md : result) {
      ObjectNode c = cleans.addObject();
      c.put("instant", md.startCleanTime());
      c.put("filesDeleted", md.totalFilesDeleted());
      c.put("filesNotDeleted", md.failedDeletes());
      if (md.earliestCommitToRetain().isEmpty()) {
        c.putNull("earliestCommitRetained");
      } else {
        c.put("earliestCommitRetained", md.earliestCommitToRetain().get());
      }
    }
    return doc;
  }
}
