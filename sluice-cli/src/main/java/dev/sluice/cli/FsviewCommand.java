package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.FileGroupInfo;
import dev.sluice.api.FileGroupKey;
import dev.sluice.api.FileSliceInfo;
import dev.sluice.api.LogFileInfo;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.Tables;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice fsview}: every file slice of every file group, not only the latest (hudi-cli {@code show fsview all}):
 * per slice its base file and log files with their sizes. {@code sluice files} shows the latest slices with their
 * log blocks.
 */
@Command(name = "fsview", description = "List every file slice of the file-system view, oldest first per file group "
    + "(not only the latest): base instant, base file and log files with sizes (hudi-cli: show fsview all).")
final class FsviewCommand implements Callable<Integer> {
  static final List<String> COLUMNS = List.of("partition", "fileId", "baseInstant", "baseFile", "baseFileSize",
      "logFileCount", "logFileSize", "logFiles", "pendingCompaction");

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--partition", paramLabel = "PATH", description = "Only this partition.")
  String partition;

  @Mixin
  ViewOptions view;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    TableInspection store = t.inspect();
    List<String> partitions = store.partitions();
    if (partition != null) {
      if (!partitions.contains(partition)) {
        throw SluiceException.badInput("the command line", "--partition", "the table at " + t.location()
            + " has no partition '" + partition + "'", "one of its partitions ('sluice files' lists them)");
      }
      partitions = List.of(partition);
    }
    Map<FileGroupKey, String> pending = store.pendingCompactionOperations();
    List<ObjectNode> rows = new ArrayList<>();
    long groups = 0;
    for (String p : partitions) {
      for (FileGroupInfo g : store.fileGroups(p)) {
        groups++;
        for (FileSliceInfo s : g.slices()) {
          rows.add(row(s, pending));
        }
      }
    }
    List<ObjectNode> shown = view.apply(rows, COLUMNS);
    long baseFiles = rows.stream().filter(r -> !r.get("baseFile").isNull()).count();
    long logFiles = rows.stream().mapToLong(r -> r.get("logFileCount").asLong()).sum();
    long bytes = rows.stream().mapToLong(r -> r.get("baseFileSize").asLong() + r.get("logFileSize").asLong()).sum();
    PrintWriter out = spec.commandLine().getOut();
    if (view.json) {
      ObjectNode doc = Json.object();
      doc.put("table", t.location());
      doc.put("tableVersion", store.tableVersion());
      doc.put("rowCount", rows.size());
      doc.set("rows", Json.tree(shown));
      doc.putObject("totals").put("partitions", partitions.size()).put("fileGroups", groups).put("slices", rows.size())
          .put("baseFiles", baseFiles).put("logFiles", logFiles).put("bytes", bytes);
      Json.print(out, doc);
      return 0;
    }
    TextTable.print(out, COLUMNS, shown);
    out.printf("total: %d partitions, %d file groups, %d file slices, %d base files, %d log files, %,d bytes%s%n",
        partitions.size(), groups, rows.size(), baseFiles, logFiles, bytes,
        shown.size() < rows.size() ? " (" + shown.size() + " of " + rows.size() + " slices shown)" : "");
    out.flush();
    return 0;
  }

  private static ObjectNode row(FileSliceInfo s, Map<FileGroupKey, String> pending) {
    ObjectNode r = Json.object();
    r.put("partition", s.partitionPath());
    r.put("fileId", s.fileId());
    r.put("baseInstant", s.baseInstant());
    if (s.baseFile().isPresent()) {
      r.put("baseFile", s.baseFile().get().fileName());
      r.put("baseFileSize", s.baseFile().get().size());
    } else {
      r.putNull("baseFile");
      r.put("baseFileSize", 0);
    }
    r.put("logFileCount", s.logFiles().size());
    r.put("logFileSize", s.logFiles().stream().mapToLong(LogFileInfo::size).sum());
    ArrayNode logs = r.putArray("logFiles");
    s.logFiles().forEach(l -> logs.addObject().put("name", l.fileName()).put("size", l.size()));
    String compaction = pending.get(s.id());
    // the pending compaction's slice is the one it starts: its base instant is the compaction's time
    r.set("pendingCompaction", compaction != null && compaction.equals(s.baseInstant())
        ? Json.tree(compaction) : Json.tree(null));
    return r;
  }
}
