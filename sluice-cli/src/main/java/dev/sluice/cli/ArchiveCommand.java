package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.archive.ArchiveResult;
import dev.sluice.archive.Archiver;
import dev.sluice.timeline.Instant;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice archive}: move old instants to the archived timeline as Hudi's archiver does. */
@Command(name = "archive", description = "Move old completed instants off the active timeline into .hoodie/archived "
    + "(when more than hoodie.keep.max.commits=30 commits are active, down to hoodie.keep.min.commits=20).")
final class ArchiveCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--dry-run", description = "Print the instants an archival would move now, and change nothing.")
  boolean dryRun;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    Archiver archiver = Archiver.of(t.storage(), t.location(), t.options());
    PrintWriter out = spec.commandLine().getOut();
    List<Instant> instants;
    if (dryRun) {
      instants = archiver.preview();
      out.printf("%d instants to archive%n", instants.size());
    } else {
      ArchiveResult result = archiver.archive();
      instants = result.archived();
      out.printf("%d instants archived (%d timeline files)%s%n", instants.size(), result.stateFiles(),
          result.archiveFile().map(f -> " to " + f).orElse(""));
    }
    for (Instant i : instants) {
      out.printf("  %s  %s%n", i.time(), i.action().id());
    }
    out.flush();
    return 0;
  }
}
