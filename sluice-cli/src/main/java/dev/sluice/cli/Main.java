package dev.sluice.cli;

import dev.sluice.api.SluiceException;
import dev.sluice.api.WriteOperation;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;

/** The {@code sluice} command line. */
// scope INHERIT gives every subcommand, at every depth, --help/-h and --version/-V: picocli answers them before it
// checks required parameters, so `sluice create --help` prints usage instead of "Missing required parameter"
@Command(name = "sluice", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT, version = "sluice 0.1.0",
    description = "Keep Apache Hudi tables (table versions 6, 8 and 9) up to date and query them, without a cluster.",
    footer = {"", "Run 'sluice help' for the help topics (--where, configuration keys, input formats, SLUICE_JAVA_OPTS)."},
    subcommands = {CreateCommand.class, QueryCommand.class, TimelineCommand.class, FilesCommand.class, LogsCommand.class,
        DemoCommand.class, UpsertCostCommand.class, ReadCostCommand.class, RollbackCommand.class, SavepointCommand.class,
        RestoreCommand.class, CleanCommand.class, ArchiveCommand.class, StatsCommand.class, AdviseCommand.class, CompactCommand.class,
        RepairCommand.class, MetadataCommand.class, UpgradeCommand.class, DowngradeCommand.class, DescribeCommand.class,
        HelpCommand.class, CompletionCommand.class, CommitCommand.class, CommitsCommand.class, FsviewCommand.class,
        CleansCommand.class, RollbacksCommand.class, ReportCommand.class, SyncCommand.class, SqlCommand.class,
        ExportCommand.class})
public final class Main implements Runnable {
  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  /** Entry point. */
  public static void main(String[] args) {
    // query rows go to the descriptor itself through their own buffer: System.out flushes at every line
    System.exit(execute(args, Optional.of(new FileOutputStream(FileDescriptor.out)), new PrintWriter(System.out, true),
        new PrintWriter(System.err, true)));
  }

  /** Runs the CLI with the given streams and returns the exit code (for tests). */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    return execute(args, Optional.empty(), out, err);
  }

  /**
   * Runs the CLI with the given streams and returns the exit code; {@code rawOut}, if given, is the byte stream
   * under {@code out}, where {@code sluice query} writes its rows in JSON Lines and CSV (as UTF-8).
   */
  public static int execute(String[] args, Optional<OutputStream> rawOut, PrintWriter out, PrintWriter err) {
    boolean verbose = false;
    for (String a : args) {
      verbose |= a.equals("--verbose");
    }
    boolean showStack = verbose;
    CommandLine cli = commandLine();
    ((QueryCommand) cli.getSubcommands().get("query").getCommand()).stdout = rawOut;
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionExceptionHandler((ex, cmd, parsed) -> report(ex, cmd.getErr(), showStack));
    try {
      return cli.execute(args);
    } catch (OutOfMemoryError | StackOverflowError e) {
      // picocli passes Errors through; a command that could say more (which input line) already did
      return report(SluiceException.outOfResources("Running sluice " + String.join(" ", commandName(args)), null, e),
          err, showStack);
    }
  }

  /** Prints one {@code error:} line (and the stack trace with --verbose); returns the exit code. */
  private static int report(Throwable ex, PrintWriter err, boolean verbose) {
    String message = ex instanceof SluiceException ? ex.getMessage() : ex.getClass().getSimpleName() + ": " + ex.getMessage();
    // one line whatever the message holds (a parser's message may carry line breaks)
    err.println("error: " + String.valueOf(message).replace("\r\n", " ").replace('\n', ' ').replace('\r', ' '));
    if (verbose) {
      ex.printStackTrace(err);
    }
    err.flush();
    return ex instanceof SluiceException se && se.kind() == SluiceException.Kind.BAD_INPUT ? 3 : 1;
  }

  private static java.util.List<String> commandName(String[] args) {
    return args.length == 0 || args[0].startsWith("-") ? java.util.List.of() : java.util.List.of(args[0]);
  }

  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Main());
    for (WriteOperation op : WriteOperation.values()) {
      CommandLine verb = new CommandLine(new WriteCommand(op));
      verb.getCommandSpec().usageMessage().description(WriteCommand.description(op));
      cli.addSubcommand(WriteCommand.verb(op), verb);
    }
    return cli;
  }
}
