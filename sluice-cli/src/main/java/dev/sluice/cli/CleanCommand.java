package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.internal.clean.CleanFile;
import dev.sluice.internal.clean.CleanMetadata;
import dev.sluice.internal.clean.CleanPlan;
import dev.sluice.internal.clean.CleanResult;
import dev.sluice.internal.clean.Cleaner;
import dev.sluice.internal.timeline.Instant;
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

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    Cleaner cleaner = Cleaner.of(t.storage(), t.location(), t.options());
    PrintWriter out = spec.commandLine().getOut();
    if (dryRun) {
      CleanPlan plan = cleaner.preview();
      if (json) {
        Json.print(out, planJson(t, plan));
        return 0;
      }
      out.printf("policy %s, earliest commit to retain %s: %d files to delete%n", plan.policy(),
          plan.earliestInstantToRetain().map(Instant::time).orElse("-"), plan.fileCount());
      for (Map.Entry<String, List<CleanFile>> e : plan.filesToDelete().entrySet()) {
        for (CleanFile f : e.getValue()) {
          out.printf("  %s  %s%n", e.getKey().isEmpty() ? "<none>" : e.getKey(), f.name());
        }
      }
      out.flush();
      return 0;
    }
    CleanResult result = cleaner.clean();
    if (json) {
      Json.print(out, resultJson(t, result));
      return 0;
    }
    if (result.completed().isEmpty()) {
      out.println("nothing to clean");
    }
    for (CleanMetadata md : result.completed()) {
      int failed = md.partitionMetadata().values().stream().mapToInt(p -> p.failedDeleteFiles().size()).sum();
      out.printf("clean %s: %d files deleted, %d not deleted, earliest commit retained %s%n", md.startCleanTime(),
          md.totalFilesDeleted(), failed, md.earliestCommitToRetain().isEmpty() ? "-" : md.earliestCommitToRetain());
    }
    out.flush();
    return 0;
  }

  private static ObjectNode planJson(Table t, CleanPlan plan) {
    ObjectNode doc = Json.object();
    doc.put("table", t.location());
    doc.put("dryRun", true);
    doc.put("policy", plan.policy().name());
    doc.set("earliestCommitToRetain", Json.tree(plan.earliestInstantToRetain().map(Instant::time)));
    doc.put("fileCount", plan.fileCount());
    ArrayNode files = doc.putArray("files");
    for (Map.Entry<String, List<CleanFile>> e : plan.filesToDelete().entrySet()) {
      for (CleanFile f : e.getValue()) {
        files.addObject().put("partition", e.getKey()).put("file", f.name());
      }
    }
    return doc;
  }

  private static ObjectNode resultJson(Table t, CleanResult result) {
    ObjectNode doc = Json.object();
    doc.put("table", t.location());
    doc.put("dryRun", false);
    ArrayNode cleans = doc.putArray("cleans");
    for (CleanMetadata md : result.completed()) {
      int failed = md.partitionMetadata().values().stream().mapToInt(p -> p.failedDeleteFiles().size()).sum();
      ObjectNode c = cleans.addObject();
      c.put("instant", md.startCleanTime());
      c.put("filesDeleted", md.totalFilesDeleted());
      c.put("filesNotDeleted", failed);
      if (md.earliestCommitToRetain().isEmpty()) {
        c.putNull("earliestCommitRetained");
      } else {
        c.put("earliestCommitRetained", md.earliestCommitToRetain());
      }
    }
    return doc;
  }
}
