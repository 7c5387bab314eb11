package dev.sluice.cli;

import dev.sluice.api.SluiceException;
import dev.sluice.api.WriteOperation;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code sluice} command line. */
@Command(name = "sluice", mixinStandardHelpOptions = true, version = "sluice 0.1.0",
    description = "Keep Apache Hudi tables (table version 6) up to date and query them, without a cluster.",
    subcommands = {CreateCommand.class, QueryCommand.class, TimelineCommand.class, FilesCommand.class, LogsCommand.class,
        DemoCommand.class, UpsertCostCommand.class, ReadCostCommand.class, RollbackCommand.class, SavepointCommand.class,
        RestoreCommand.class, CleanCommand.class, ArchiveCommand.class, StatsCommand.class, AdviseCommand.class, CompactCommand.class,
        RepairCommand.class})
public final class Main implements Runnable {
  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  /** Entry point. */
  public static void main(String[] args) {
    System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the CLI with the given streams and returns the exit code (for tests). */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = commandLine();
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      boolean verbose = false;
      for (String a : args) {
        verbose |= a.equals("--verbose");
      }
      Throwable shown = ex;
      String message = ex instanceof SluiceException ? ex.getMessage() : ex.getClass().getSimpleName() + ": " + ex.getMessage();
      cmd.getErr().println("error: " + message);
      if (verbose) {
        shown.printStackTrace(cmd.getErr());
      }
      cmd.getErr().flush();
      return ex instanceof SluiceException se && se.kind() == SluiceException.Kind.BAD_INPUT ? 3 : 1;
    });
    return cli.execute(args);
  }

  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Main());
    cli.addSubcommand("insert", new WriteCommand(WriteOperation.INSERT));
    cli.addSubcommand("upsert", new WriteCommand(WriteOperation.UPSERT));
    cli.addSubcommand("delete", new WriteCommand(WriteOperation.DELETE));
    cli.addSubcommand("bulk-insert", new WriteCommand(WriteOperation.BULK_INSERT));
    return cli;
  }
}
