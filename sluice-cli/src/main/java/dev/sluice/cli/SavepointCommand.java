package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.SluiceException;
import dev.sluice.api.SavepointInfo;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice savepoint TABLE [INSTANT]}: savepoint a commit (or delete a savepoint). */
@Command(name = "savepoint", description = "Savepoint a completed commit (the latest by default), so the table can be "
    + "restored to it; --delete removes a savepoint.")
final class SavepointCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Parameters(index = "1", arity = "0..1", paramLabel = "INSTANT", description = "The commit to savepoint.")
  String instant;

  @Option(names = "--delete", description = "Delete the savepoint at INSTANT instead.")
  boolean delete;

  @Option(names = "--comment", description = "A comment stored with the savepoint.")
  String comment = "";

  @Option(names = "--user", description = "Who made the savepoint (default: the current user).")
  String user = System.getProperty("user.name", "");

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    PrintWriter out = spec.commandLine().getOut();
    if (delete) {
      if (instant == null) {
        throw SluiceException.badRequest("savepoint --delete", "no INSTANT was given", "Name the savepoint to delete.");
      }
      t.deleteSavepoint(instant);
      out.println("Deleted savepoint " + instant);
    } else {
      SavepointInfo md = t.savepoint(Optional.ofNullable(instant), user, comment);
      long files = md.partitionFiles().values().stream().mapToLong(java.util.List::size).sum();
      out.println("Savepointed " + (instant != null ? instant : "the latest commit " + t.inspect().lastCompletedCommit()
          .orElse("")) + ": " + files + " files in "
          + md.partitionFiles().size() + " partitions kept");
    }
    out.flush();
    return 0;
  }
}
