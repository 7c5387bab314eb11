package dev.sluice.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code sluice commits}: the group of commands over the commits of tables ({@code compare}). */
@Command(name = "commits", description = "Commands over the commits of tables: compare (the commits of one table "
    + "listed by 'sluice timeline').", subcommands = {CommitsCompareCommand.class})
final class CommitsCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    // a group without its command word: say which ones there are, as picocli does for a usage error
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand: give one of "
        + String.join(", ", spec.subcommands().keySet()));
  }
}
