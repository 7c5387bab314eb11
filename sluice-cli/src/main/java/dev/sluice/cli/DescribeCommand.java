package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.FileSliceInfo;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.LogFileInfo;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.Tables;
import dev.sluice.tools.records.SchemaDdl;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.avro.Schema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice describe}: what a table is, in one place: type, version, keys, ordering, merge mode, key generator,
 * schema, properties, metadata table partitions, the size of what a read sees, and the last commit. Read-only.
 */
@Command(name = "describe", description = "Describe a table: type, table version, record key, partition and ordering "
    + "fields, merge mode, key generator, schema (columns and Avro), hoodie.properties, metadata table partitions, "
    + "size and file groups of the latest slices, last completed commit.")
final class DescribeCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--json", description = "Print one JSON document (field names in docs/cli.md).")
  boolean json;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  /** Files and bytes of the latest file slices of every partition (what a snapshot read opens). */
  private record Size(int partitions, long fileGroups, long baseFiles, long logFiles, long bytes) {
    long files() {
      return baseFiles + logFiles;
    }
  }

  @Override
  public Integer call() throws IOException {
    Table t = Tables.open(table, common.config());
    TableInspection view = t.inspect();
    Schema schema = t.schema();
    Size size = size(view);
    Optional<InstantInfo> last = view.lastCompletedCommit().flatMap(view::find);
    Map<String, String> props = view.properties();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode doc = Json.object();
      doc.put("table", t.location());
      doc.put("name", props.get("hoodie.table.name"));
      doc.put("tableType", view.tableType().name());
      doc.put("tableVersion", view.tableVersion());
      doc.set("recordKeyFields", Json.tree(view.recordKeyFields()));
      doc.set("partitionFields", Json.tree(view.partitionFields()));
      doc.set("orderingField", Json.tree(view.orderingField()));
      doc.put("mergeMode", view.mergeMode().name());
      doc.set("keyGenerator", Json.tree(view.keyGenerator()));
      ObjectNode s = doc.putObject("schema");
      s.put("ddl", SchemaDdl.format(schema));
      s.set("avro", Json.MAPPER.readTree(schema.toString()));
      doc.set("properties", Json.tree(props));
      doc.set("metadataTablePartitions", Json.tree(view.metadataPartitions()));
      ObjectNode z = doc.putObject("latestSlices");
      z.put("partitions", size.partitions()).put("fileGroups", size.fileGroups()).put("baseFiles", size.baseFiles())
          .put("logFiles", size.logFiles()).put("files", size.files()).put("bytes", size.bytes());
      if (last.isPresent()) {
        ObjectNode c = doc.putObject("lastCommit");
        c.put("time", last.get().time()).put("action", last.get().action());
        c.set("completionTime", Json.tree(view.completionTime(last.get().time())));
      } else {
        doc.putNull("lastCommit");
      }
      Json.print(out, doc);
      return 0;
    }
    out.printf("table            %s (%s)%n", props.get("hoodie.table.name"), t.location());
    out.printf("type             %s, table version %d%n", view.tableType(), view.tableVersion());
    out.printf("record key       %s%n", String.join(", ", view.recordKeyFields()));
    out.printf("partition by     %s%n", view.partitionFields().isEmpty() ? "(not partitioned)"
        : String.join(", ", view.partitionFields()));
    out.printf("ordering field   %s%n", view.orderingField().orElse("(none)"));
    out.printf("merge mode       %s%n", view.mergeMode());
    out.printf("key generator    %s%n", view.keyGenerator().orElse("(none recorded)"));
    out.printf("metadata table   %s%n", view.metadataPartitions().isEmpty() ? "(none)"
        : String.join(", ", view.metadataPartitions()));
    out.printf("latest slices    %,d partitions, %,d file groups, %,d files (%,d base, %,d log), %,d bytes%n",
        size.partitions(), size.fileGroups(), size.files(), size.baseFiles(), size.logFiles(), size.bytes());
    out.printf("last commit      %s%n", last.map(i -> i.time() + " " + i.action()
        + view.completionTime(i.time()).map(c -> " (completed " + c + ")").orElse("")).orElse("(none)"));
    out.printf("%ncolumns%n  %s%n", SchemaDdl.format(schema).replace(", ", ",\n  "));
    out.printf("%navro schema%n%s%n", schema.toString(true));
    out.printf("%nhoodie.properties%n");
    props.forEach((k, v) -> out.printf("  %s=%s%n", k, v));
    out.flush();
    return 0;
  }

  private static Size size(TableInspection view) {
    List<String> partitions = view.partitions();
    long groups = 0;
    long base = 0;
    long logs = 0;
    long bytes = 0;
    for (String p : partitions) {
      for (FileSliceInfo s : view.latestSlices(p)) {
        groups++;
        if (s.baseFile().isPresent()) {
          base++;
          bytes += s.baseFile().get().size();
        }
        for (LogFileInfo l : s.logFiles()) {
          logs++;
          bytes += l.size();
        }
      }
    }
    return new Size(partitions.size(), groups, base, logs, bytes);
  }
}
