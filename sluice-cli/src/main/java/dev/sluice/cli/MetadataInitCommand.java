package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.MetadataTableView;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice metadata init TABLE [--record-index]}: builds the table's metadata table ({@code hudi-cli metadata
 * create}); with {@code --record-index} also its record-level index. Exit 1 if the record index was asked for and
 * is not there afterwards.
 */
@Command(name = "init", description = "Build the table's metadata table (.hoodie/metadata: its files partition, from a "
    + "listing) if it has none; --record-index also builds the record-level index (record_index) that "
    + "hoodie.index.type=RECORD_INDEX tags with.")
final class MetadataInitCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--record-index", description = "Also build the record-level index (hoodie.metadata.record.index.enable).")
  boolean recordIndex;

  @Option(names = "--json", description = "Print one JSON document (field names in docs/cli.md).")
  boolean json;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    MetadataTableView m = t.initMetadataTable(recordIndex);
    boolean indexed = m.partitionsEnabled().contains("record_index");
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode doc = Json.object();
      doc.put("table", t.location());
      doc.set("latestInstant", Json.tree(m.latestInstant()));
      ArrayNode enabled = doc.putArray("partitionsEnabled");
      m.partitionsEnabled().forEach(enabled::add);
      Json.print(out, doc);
    } else {
      out.printf("metadata table of %s: partitions %s, latest instant %s%n", t.location(),
          String.join(",", m.partitionsEnabled()), m.latestInstant().orElse("-"));
    }
    if (recordIndex && !indexed) {
      spec.commandLine().getErr().printf("the record index was not built: hoodie.table.metadata.partitions lists %s "
          + "after the initialization with hoodie.metadata.record.index.enable=true%n", m.partitionsEnabled());
      return 1;
    }
    return 0;
  }
}
