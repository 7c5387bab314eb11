package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice metadata delete TABLE}: removes the metadata table ({@code hudi-cli metadata delete}). */
@Command(name = "delete", description = "Remove the table's metadata table (.hoodie/metadata and "
    + "hoodie.table.metadata.partitions), as a Hudi writer with hoodie.metadata.enable=false does; reads "
    + "then list storage. A later write builds it again unless it has hoodie.metadata.enable=false (the default is "
    + "on, as in Hudi's writers).")
final class MetadataDeleteCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    boolean removed = t.deleteMetadataTable();
    PrintWriter out = spec.commandLine().getOut();
    out.printf(removed ? "metadata table of %s deleted%n" : "%s has no metadata table%n", t.location());
    return 0;
  }
}
