package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.timeline.Action;
import dev.sluice.timeline.CommitMetadata;
import dev.sluice.timeline.Instant;
import dev.sluice.timeline.TimelineStore;
import dev.sluice.timeline.WriteStat;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice timeline}: every instant on the active timeline with what it wrote. */
@Command(name = "timeline", description = "List the instants of a table: time, action, state, records and files written.")
final class TimelineCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    TimelineStore store = new TimelineStore(t.storage(), t.location());
    PrintWriter out = spec.commandLine().getOut();
    String fmt = "%-17s  %-12s  %-9s  %-11s  %9s  %9s  %9s  %6s  %12s%n";
    out.printf(fmt, "instant", "action", "state", "operation", "inserted", "updated", "deleted", "files", "bytes");
    for (Instant i : t.timeline().instants()) {
      boolean commit = i.action() == Action.COMMIT || i.action() == Action.DELTACOMMIT || i.action() == Action.REPLACECOMMIT;
      Optional<CommitMetadata> md = i.isCompleted() && commit ? store.readCommitMetadata(i) : Optional.empty();
      if (md.isPresent()) {
        List<WriteStat> stats = md.get().allStats();
        out.printf(fmt, i.time(), i.action().id(), i.state().name().toLowerCase(java.util.Locale.ROOT),
            md.get().operationType(), stats.stream().mapToLong(WriteStat::numInserts).sum(),
            stats.stream().mapToLong(WriteStat::numUpdateWrites).sum(),
            stats.stream().mapToLong(WriteStat::numDeletes).sum(), stats.size(),
            stats.stream().mapToLong(WriteStat::totalWriteBytes).sum());
      } else {
        out.printf(fmt.replace("%n", "%s%n"), i.time(), i.action().id(), i.state().name().toLowerCase(java.util.Locale.ROOT),
            "", "", "", "", "", "", InstantDetails.of(store, i).map(d -> "  " + d).orElse(""));
      }
    }
    out.flush();
    return 0;
  }
}
