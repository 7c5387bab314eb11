package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.MetadataDifference;
import dev.sluice.api.MetadataValidation;
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
 * {@code sluice metadata validate TABLE}: the metadata table's listing against a listing of storage
 * ({@code hudi-cli metadata validate-files}); exit 1 when they differ.
 */
@Command(name = "validate", description = "Check the metadata table's partitions and files against a listing of storage: "
    + "missing and extra partitions and files, size mismatches. Exit 1 if they differ.")
final class MetadataValidateCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--json", description = "Print one JSON document (field names in docs/cli.md).")
  boolean json;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    MetadataValidation v = t.metadataTable().validate();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode doc = Json.object();
      doc.put("table", t.location());
      doc.put("matches", v.matches());
      doc.put("partitions", v.partitions());
      doc.put("files", v.files());
      ArrayNode diffs = doc.putArray("differences");
      for (MetadataDifference d : v.differences()) {
        diffs.addObject().put("kind", d.kind().name()).put("partition", d.partition())
            .<ObjectNode>set("file", Json.tree(d.file())).<ObjectNode>set("metadataSize", Json.tree(d.metadataSize()))
            .set("storageSize", Json.tree(d.storageSize()));
      }
      Json.print(out, doc);
    } else {
      for (MetadataDifference d : v.differences()) {
        out.println(d.describe());
      }
      out.printf("%s: %d partitions, %d files compared, %d differences%n",
          v.matches() ? "metadata table matches storage" : "metadata table differs from storage",
          v.partitions(), v.files(), v.differences().size());
      out.flush();
    }
    return v.matches() ? 0 : 1;
  }
}
