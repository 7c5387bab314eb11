package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.RollbackInfo;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice rollback TABLE [INSTANT]}: roll back failed writes, or one instant. */
@Command(name = "rollback", description = "Roll back every failed (pending) write, or the given instant: a pending write "
    + "or the latest completed commit. Each rollback is a rollback instant on the timeline, as Hudi writes it.")
final class RollbackCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Parameters(index = "1", arity = "0..1", paramLabel = "INSTANT", description = "The instant to roll back.")
  String instant;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    PrintWriter out = spec.commandLine().getOut();
    List<RollbackInfo> done = instant == null ? t.rollbackFailedWrites() : List.of(t.rollback(instant));
    if (done.isEmpty()) {
      out.println("No failed writes to roll back.");
    }
    for (RollbackInfo md : done) {
      out.println(describe(md));
    }
    out.flush();
    return 0;
  }

  static String describe(RollbackInfo md) {
    int blocks = md.rollbackLogFiles();
    String target = md.instantsRollback().isEmpty() ? String.join(",", md.commitsRollback())
        : md.instantsRollback().get(0).commitTime() + " (" + md.instantsRollback().get(0).action() + ")";
    return "Rolled back " + target + " at rollback instant " + md.startRollbackTime() + ": " + md.totalFilesDeleted()
        + " files deleted, " + blocks + " log files given a rollback block";
  }
}
