package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.FileGroupInfo;
import dev.sluice.api.FileGroupKey;
import dev.sluice.api.FileSliceInfo;
import dev.sluice.api.LogBlockInfo;
import dev.sluice.api.LogFileInfo;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.Tables;
import dev.sluice.tools.health.TableHealth;
import dev.sluice.tools.health.Warning;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice files}: partitions, file groups and the files a snapshot of each group reads: the base file and
 * every log file with its blocks; then the table's health warnings.
 */
@Command(name = "files", description = "List partitions, file groups and the base and log files (with their blocks) of their "
    + "latest slices, then the table's health warnings.")
final class FilesCommand implements Callable<Integer> {
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
    TableInspection view = t.inspect();
    PrintWriter out = spec.commandLine().getOut();
    Map<FileGroupKey, String> pending = view.pendingCompactionOperations();
    long groups = 0;
    long bytes = 0;
    long logs = 0;
    ObjectNode doc = Json.object();
    doc.put("table", t.location());
    doc.put("tableVersion", t.tableVersion());
    if (t.tableVersion() != 6) {
      // versions 8 and 9 place logs by their delta commit's completion time, shown next to each file
      text(out, "table version %d%n", t.tableVersion());
    }
    ArrayNode partitions = doc.putArray("partitions");
    for (String partition : view.partitions()) {
      List<FileGroupInfo> fgs = view.fileGroups(partition);
      ObjectNode p = partitions.addObject();
      p.put("partition", partition);
      ArrayNode groupsJson = p.putArray("fileGroups");
      text(out, "partition %s (%d file groups)%n", partition.isEmpty() ? "<none>" : partition, fgs.size());
      Map<String, FileSliceInfo> merged = new HashMap<>();
      view.latestSlices(partition).forEach(s -> merged.put(s.fileId(), s));
      for (FileGroupInfo fg : fgs) {
        FileSliceInfo slice = merged.get(fg.id().fileId());
        if (slice == null) {
          continue;
        }
        groups++;
        String compaction = pending.get(fg.id());
        ObjectNode g = groupsJson.addObject();
        g.put("fileId", fg.id().fileId());
        g.put("baseInstant", slice.baseInstant());
        g.set("pendingCompaction", Json.tree(Optional.ofNullable(compaction)));
        text(out, "  file group %s  slice %s%s%n", fg.id().fileId(), slice.baseInstant(),
            compaction == null ? "" : "  (compaction " + compaction + " pending)");
        if (slice.baseFile().isPresent()) {
          String baseName = slice.baseFile().get().fileName();
          Optional<String> baseCompleted = view.completionTime(baseInstantOf(baseName));
          ObjectNode b = g.putObject("baseFile").put("name", baseName).put("size", slice.baseFile().get().size());
          baseCompleted.ifPresent(c -> b.put("completionTime", c));
          text(out, "    base %s  %,d bytes%s%n", baseName, slice.baseFile().get().size(),
              baseCompleted.map(c -> "  completed " + c).orElse(""));
          bytes += slice.baseFile().get().size();
        } else {
          g.putNull("baseFile");
        }
        ArrayNode logsJson = g.putArray("logFiles");
        for (LogFileInfo log : slice.logFiles()) {
          ObjectNode l = logsJson.addObject().put("name", log.fileName()).put("size", log.size());
          Optional<String> logCompleted = view.completionTime(logInstantOf(log.fileName()));
          logCompleted.ifPresent(c -> l.put("completionTime", c));
          ArrayNode blocks = l.putArray("blocks");
          text(out, "    log  %s  %,d bytes%s%n", log.fileName(), log.size(),
              logCompleted.map(c -> "  completed " + c).orElse(""));
          bytes += log.size();
          logs++;
          try (CloseableIterator<LogBlockInfo> it = view.logBlocks(log.path())) {
            while (it.hasNext()) {
              LogBlockInfo b = it.next();
              blocks.addObject().put("offset", b.offset()).put("size", b.size()).put("type", b.type())
                  .<ObjectNode>set("instant", Json.tree(b.instantTime())).set("records", Json.tree(b.records()));
              text(out, "      %s%n", LogsCommand.describe(b));
            }
          }
        }
      }
    }
    List<Warning> warnings = TableHealth.of(view, Clock.systemUTC()).warnings();
    if (json) {
      doc.put("fileGroups", groups);
      doc.put("logFiles", logs);
      doc.put("bytes", bytes);
      doc.set("warnings", Json.warnings(warnings));
      Json.print(out, doc);
      return 0;
    }
    out.printf("%d file groups, %d log files, %,d bytes in latest slices%n", groups, logs, bytes);
    WarningsText.print(out, warnings);
    out.flush();
    return 0;
  }

  /** The commit time in a base file name {@code <fileId>_<token>_<instant>.<ext>}. */
  static String baseInstantOf(String name) {
    String stem = name.substring(0, name.lastIndexOf('.'));
    return stem.substring(stem.lastIndexOf('_') + 1);
  }

  /** The instant in a log file name {@code .<fileId>_<instant>.log.<version>_<token>} (8/9: its delta commit). */
  static String logInstantOf(String name) {
    int logAt = name.indexOf(".log.");
    String head = logAt < 0 ? name : name.substring(0, logAt);
    return head.substring(head.lastIndexOf('_') + 1);
  }

  private void text(PrintWriter out, String format, Object... args) {
    if (!json) {
      out.printf(format, args);
    }
  }
}
