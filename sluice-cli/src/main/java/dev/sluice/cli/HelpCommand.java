package dev.sluice.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice help [TOPIC | COMMAND [SUBCOMMAND]]}: the help topics, or a command's usage. An unknown word exits 2
 * (picocli's code for a usage error) with the list, as a mistyped command does.
 */
@Command(name = "help", helpCommand = true, description = "Show a help topic or a command's usage; alone, list the "
    + "topics and commands.")
final class HelpCommand implements Callable<Integer> {
  @Parameters(arity = "0..*", paramLabel = "TOPIC|COMMAND", description = "A topic (where, config, formats, java-opts) "
      + "or a command (e.g. insert, or metadata init).")
  List<String> words = List.of();

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    CommandLine root = spec.root().commandLine();
    PrintWriter out = spec.commandLine().getOut();
    if (words.isEmpty()) {
      root.usage(out);
      out.println();
      printTopics(out);
      out.flush();
      return 0;
    }
    if (words.size() == 1) {
      var topic = HelpTopics.find(words.get(0));
      if (topic.isPresent()) {
        out.println(topic.get().text());
        out.flush();
        return 0;
      }
    }
    CommandLine cmd = root;
    for (String w : words) {
      cmd = cmd.getSubcommands().get(w);
      if (cmd == null) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("error: no help topic or command '" + String.join(" ", words) + "'.");
        printTopics(err);
        err.println("Commands: " + String.join(", ", root.getSubcommands().keySet()));
        err.flush();
        return CommandLine.ExitCode.USAGE;
      }
    }
    cmd.usage(out);
    out.flush();
    return 0;
  }

  private static void printTopics(PrintWriter out) {
    out.println("Help topics (sluice help TOPIC):");
    for (HelpTopics.Topic t : HelpTopics.all()) {
      out.printf("  %-10s %s%n", t.name(), t.summary());
    }
  }
}
