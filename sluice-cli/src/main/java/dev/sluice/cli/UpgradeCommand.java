package dev.sluice.cli;

import dev.sluice.api.CompactionInfo;
import dev.sluice.api.RollbackInfo;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.UpgradeInfo;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice upgrade TABLE --to 8|9}: moves a table to a newer Hudi table version, as Hudi 1.x's upgrade does. */
@Command(name = "upgrade", description = "Upgrade the table to Hudi table version 8 (Hudi 1.0) or 9 (Hudi 1.1/1.2): "
    + "failed writes rolled back and Merge-on-Read slices compacted first, the metadata table upgraded with it and "
    + "kept, the timeline moved to .hoodie/timeline with completion times, the archive converted to the LSM history, hoodie.properties "
    + "rewritten. Crash-safe: run it again to finish an interrupted upgrade. Run it with no writer running.")
final class UpgradeCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--to", required = true, paramLabel = "VERSION", description = "The table version: 8 or 9.")
  int to;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    UpgradeInfo info = t.upgrade(to);
    print(spec.commandLine().getOut(), t.location(), info);
    return 0;
  }

  static void print(PrintWriter out, String location, UpgradeInfo info) {
    for (RollbackInfo r : info.rolledBack()) {
      out.println(RollbackCommand.describe(r));
    }
    for (CompactionInfo c : info.compactions()) {
      out.println("Compacted at " + c.instantTime() + " (before the upgrade, at version " + info.fromVersion() + ")");
    }
    if (info.fromVersion() == info.toVersion() && info.oldFilesDeleted() == 0) {
      out.printf("%s is at table version %d already%n", location, info.toVersion());
    } else {
      out.printf("%s: table version %d -> %d; %d timeline files in .hoodie/timeline, %d archived instants in the LSM "
          + "history, metadata table %s, %d old timeline files deleted%n", location, info.fromVersion(),
          info.toVersion(), info.timelineFiles(), info.archivedInstants(),
          info.metadataTableKept() ? (info.toVersion() >= info.fromVersion() ? "upgraded" : "downgraded") + " and kept"
              : info.metadataTableRemoved() ? "removed" : "none",
          info.oldFilesDeleted());
    }
    out.flush();
  }
}
