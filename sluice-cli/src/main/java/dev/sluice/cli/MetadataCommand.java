package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.MetadataFileInfo;
import dev.sluice.api.MetadataTableView;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice metadata TABLE}: the partitions and files the table's metadata table lists (what
 * {@code hudi-cli metadata list-partitions} and {@code list-files} show), and whether reads use it;
 * {@code sluice metadata validate TABLE} checks that listing against storage.
 */
@Command(name = "metadata", description = "Show the partitions and files the table's metadata table (.hoodie/metadata) "
    + "lists, and whether reads list through it.", subcommands = {MetadataValidateCommand.class,
    MetadataInitCommand.class, MetadataDeleteCommand.class})
final class MetadataCommand implements Callable<Integer> {
  // optional so that 'metadata validate TABLE' parses; without a subcommand it is required (checked in call)
  @Parameters(index = "0", arity = "0..1", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--json", description = "Print one JSON document (field names in docs/cli.md).")
  boolean json;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    if (table == null) {
      throw new ParameterException(spec.commandLine(), "Missing required parameter: 'TABLE'");
    }
    Table t = Tables.open(table, common.config());
    MetadataTableView m = t.metadataTable();
    PrintWriter out = spec.commandLine().getOut();
    Map<String, List<MetadataFileInfo>> files = m.files();
    if (json) {
      ObjectNode doc = Json.object();
      doc.put("table", t.location());
      doc.put("usedForListings", m.usedForListings());
      doc.put("status", m.status());
      doc.set("latestInstant", Json.tree(m.latestInstant()));
      ArrayNode enabled = doc.putArray("partitionsEnabled");
      m.partitionsEnabled().forEach(enabled::add);
      ArrayNode partitions = doc.putArray("partitions");
      files.forEach((p, list) -> {
        ObjectNode pj = partitions.addObject().put("partition", p);
        ArrayNode fj = pj.putArray("files");
        list.forEach(f -> fj.addObject().put("name", f.name()).put("size", f.size()));
      });
      Json.print(out, doc);
      return 0;
    }
    out.printf("metadata table: %s%n", m.usedForListings() ? "used for listings" : "not used for listings");
    out.printf("  %s%n", m.status());
    out.printf("  latest instant %s, partitions enabled: %s%n", m.latestInstant().orElse("-"),
        m.partitionsEnabled().isEmpty() ? "none" : String.join(",", m.partitionsEnabled()));
    long count = 0;
    long bytes = 0;
    for (Map.Entry<String, List<MetadataFileInfo>> e : files.entrySet()) {
      out.printf("partition %s (%d files)%n", e.getKey().isEmpty() ? "<none>" : e.getKey(), e.getValue().size());
      for (MetadataFileInfo f : e.getValue()) {
        out.printf("  %s  %,d bytes%n", f.name(), f.size());
        count++;
        bytes += f.size();
      }
    }
    out.printf("%d partitions, %d files, %,d bytes%n", files.size(), count, bytes);
    out.flush();
    return 0;
  }
}
