package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.clean.CleanFile;
import dev.sluice.clean.CleanMetadata;
import dev.sluice.clean.CleanPlan;
import dev.sluice.clean.CleanResult;
import dev.sluice.clean.Cleaner;
import dev.sluice.timeline.Instant;
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
}
