package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice downgrade TABLE --to 8}: moves a version-9 table back to version 8, as Hudi 1.1's downgrade does. */
@Command(name = "downgrade", description = "Downgrade a version-9 table to version 8 (hoodie.properties only, as "
    + "Hudi 1.1 does; failed writes rolled back first). A Merge-on-Read table must have no log files in its latest "
    + "slices (compact it with Hudi first). To version 6: use Hudi 1.x's downgrade.")
final class DowngradeCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--to", required = true, paramLabel = "VERSION", description = "The table version: 8.")
  int to;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    UpgradeCommand.print(spec.commandLine().getOut(), t.location(), t.downgrade(to));
    return 0;
  }
}
