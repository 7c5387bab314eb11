package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.RestoreInfo;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice restore TABLE INSTANT}: restore to a savepoint. */
@Command(name = "restore", description = "Restore the table to a savepoint: every write after it is rolled back. "
    + "Run it again if it was interrupted; writes are refused until it finishes.")
final class RestoreCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Parameters(index = "1", paramLabel = "INSTANT", description = "The savepoint to restore to.")
  String instant;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    RestoreInfo md = t.restore(instant);
    PrintWriter out = spec.commandLine().getOut();
    out.println("Restored to savepoint " + instant + " at restore instant " + md.startRestoreTime() + ": "
        + md.instantsToRollback().size() + " instants rolled back" + (md.instantsToRollback().isEmpty() ? ""
        : " (" + String.join(", ", md.instantsToRollback()) + ")"));
    out.flush();
    return 0;
  }
}
