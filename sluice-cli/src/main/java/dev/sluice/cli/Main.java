package dev.sluice.cli;

import dev.sluice.api.SluiceException;
import dev.sluice.api.WriteOperation;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** The {@code sluice} command line. */
// scope INHERIT gives every subcommand, at every depth, --help/-h and --version/-V: picocli answers them before it
// checks required parameters, so `sluice create --help` prints usage instead of "Missing required parameter"
@Command(name = "sluice", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT, version = "sluice 0.1.0",
    description = "Keep Apache Hudi tables (table versions 6, 8 and 9) up to date and query them, without a cluster.",
    footer = {"", "Run 'sluice help' for the help topics (--where, configuration keys, input formats, SLUICE_JAVA_OPTS)."})
public final class Main implements Runnable {
  /**
   * The top-level commands, in the order the usage lists them (the write verbs follow), each made only when the
   * command line needs it. Picocli builds a command's model by reflection over its annotated fields; in a cold JVM
   * that cost about 0.1 s for the 36 commands, paid by every run although a run uses one. So a run that names a
   * command gets that one alone; help, completion, a bare {@code sluice} or an unknown word get all of them.
   */
  private static final List<Map.Entry<String, Class<?>>> COMMANDS = List.of(
      Map.entry("create", CreateCommand.class),
      Map.entry("query", QueryCommand.class),
      Map.entry("timeline", TimelineCommand.class),
      Map.entry("files", FilesCommand.class),
      Map.entry("logs", LogsCommand.class),
      Map.entry("demo", DemoCommand.class),
      Map.entry("upsert-cost", UpsertCostCommand.class),
      Map.entry("read-cost", ReadCostCommand.class),
      Map.entry("rollback", RollbackCommand.class),
      Map.entry("savepoint", SavepointCommand.class),
      Map.entry("restore", RestoreCommand.class),
      Map.entry("clean", CleanCommand.class),
      Map.entry("archive", ArchiveCommand.class),
      Map.entry("stats", StatsCommand.class),
      Map.entry("advise", AdviseCommand.class),
      Map.entry("compact", CompactCommand.class),
      Map.entry("repair", RepairCommand.class),
      Map.entry("metadata", MetadataCommand.class),
      Map.entry("upgrade", UpgradeCommand.class),
      Map.entry("downgrade", DowngradeCommand.class),
      Map.entry("describe", DescribeCommand.class),
      Map.entry("help", HelpCommand.class),
      Map.entry("completion", CompletionCommand.class),
      Map.entry("commit", CommitCommand.class),
      Map.entry("commits", CommitsCommand.class),
      Map.entry("fsview", FsviewCommand.class),
      Map.entry("cleans", CleansCommand.class),
      Map.entry("rollbacks", RollbacksCommand.class),
      Map.entry("report", ReportCommand.class),
      Map.entry("sync", SyncCommand.class),
      Map.entry("sql", SqlCommand.class),
      Map.entry("export", ExportCommand.class));
  /** Commands that look at the others (usage of any command, a completion script of all): never built alone. */
  private static final Set<String> NEED_ALL = Set.of("help", "completion");

  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    // a bare `sluice` is built with every command (alone), so its usage lists them all
    spec.commandLine().usage(spec.commandLine().getOut());
    spec.commandLine().getOut().flush();
  }

  /** Entry point. */
  public static void main(String[] args) {
    // before anything loads snappy-java: the launcher's copy of its native library, if it keeps one
    NativeLibraryCache.useForSnappy(Optional.ofNullable(System.getProperty(NativeLibraryCache.DIR_PROPERTY)));
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
    CommandLine cli = commandLine(args.length > 0 ? alone(args[0]) : Optional.empty());
    CommandLine query = cli.getSubcommands().get("query");
    if (query != null) {
      ((QueryCommand) query.getCommand()).stdout = rawOut;
    }
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

  /** The command line with every command. */
  static CommandLine commandLine() {
    return commandLine(Optional.empty());
  }

  /** The command line with only the top-level command {@code only}, or with every command when it is empty. */
  static CommandLine commandLine(Optional<String> only) {
    CommandLine cli = new CommandLine(new Main());
    for (Map.Entry<String, Class<?>> c : COMMANDS) {
      if (only.isEmpty() || only.get().equals(c.getKey())) {
        // picocli makes the command from its class, as it did from the annotation
        cli.addSubcommand(c.getKey(), c.getValue());
      }
    }
    for (WriteOperation op : WriteOperation.values()) {
      if (only.isEmpty() || only.get().equals(WriteCommand.verb(op))) {
        CommandLine verb = new CommandLine(new WriteCommand(op));
        verb.getCommandSpec().usageMessage().description(WriteCommand.description(op));
        cli.addSubcommand(WriteCommand.verb(op), verb);
      }
    }
    return cli;
  }

  /** The top-level command a run's first word names, if one can be built alone. */
  static Optional<String> alone(String first) {
    if (NEED_ALL.contains(first)) {
      return Optional.empty();
    }
    for (Map.Entry<String, Class<?>> c : COMMANDS) {
      if (c.getKey().equals(first)) {
        return Optional.of(first);
      }
    }
    for (WriteOperation op : WriteOperation.values()) {
      if (WriteCommand.verb(op).equals(first)) {
        return Optional.of(first);
      }
    }
    return Optional.empty();
  }
}
