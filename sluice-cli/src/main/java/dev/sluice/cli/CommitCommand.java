package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.CommitInfo;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.LogBlockInfo;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.Tables;
import dev.sluice.api.WriteStatInfo;
import dev.sluice.storage.StoragePaths;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice commit}: one completed commit's files and write stats (hudi-cli {@code commit showfiles} and
 * {@code commit show_write_stats}), from its commit metadata: per file written its partition, file group, the
 * commit it follows, records and bytes, the log blocks it appended (counted in the log file) and, for a compaction,
 * the log blocks it read; then the commit's totals.
 */
@Command(name = "commit", description = "Show the files one completed commit, delta commit or replacecommit wrote and "
    + "its write stats: per file partition, file group, previous commit, records written/inserted/updated/deleted, "
    + "bytes, log blocks appended (logBlocks) or compacted (totalLogBlocks); then totals (hudi-cli: commit showfiles, "
    + "commit show_write_stats).")
final class CommitCommand implements Callable<Integer> {
  static final List<String> COLUMNS = List.of("partition", "fileId", "file", "prevCommit", "numWrites", "numInserts",
      "numUpdateWrites", "numDeletes", "totalWriteBytes", "fileSizeInBytes", "logBlocks", "totalLogBlocks", "delta");

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Parameters(index = "1", paramLabel = "INSTANT", description = "The commit's instant time ('sluice timeline' lists them).")
  String instant;

  @Option(names = "--partition", paramLabel = "PATH", description = "Only the files of this partition.")
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
    CommitInfo md = completedCommit(store, instant, "INSTANT");
    List<ObjectNode> rows = new ArrayList<>();
    for (WriteStatInfo s : md.stats()) {
      if (partition != null && !partition.equals(s.partitionPath())) {
        continue;
      }
      ObjectNode r = Json.object();
      r.put("partition", s.partitionPath());
      r.put("fileId", s.fileId());
      r.set("file", Json.tree(s.path().map(StoragePaths::name)));
      r.set("path", Json.tree(s.path()));
      r.put("prevCommit", s.prevCommit());
      r.put("numWrites", s.numWrites());
      r.put("numInserts", s.numInserts());
      r.put("numUpdateWrites", s.numUpdateWrites());
      r.put("numDeletes", s.numDeletes());
      r.put("totalWriteBytes", s.totalWriteBytes());
      r.put("fileSizeInBytes", s.fileSizeInBytes());
      r.set("logBlocks", s.delta() ? logBlocks(t, store, s) : Json.tree(null));
      r.put("totalLogBlocks", s.totalLogBlocks());
      r.put("delta", s.delta());
      rows.add(r);
    }
    ObjectNode totals = totals(rows);
    List<ObjectNode> shown = view.apply(rows, COLUMNS);
    PrintWriter out = spec.commandLine().getOut();
    if (view.json) {
      ObjectNode doc = Json.object();
      doc.put("table", t.location());
      doc.put("instant", instant);
      doc.put("action", store.find(instant).map(InstantInfo::action).orElse(""));
      doc.put("operation", md.operation());
      store.completionTime(instant).ifPresent(c -> doc.put("completionTime", c));
      doc.put("rowCount", rows.size());
      doc.set("rows", Json.tree(shown));
      doc.set("totals", totals);
      Json.print(out, doc);
      return 0;
    }
    out.printf("%s %s (%s)%s%n", store.find(instant).map(InstantInfo::action).orElse(""), instant, md.operation(),
        store.completionTime(instant).map(c -> ", completed " + c).orElse(""));
    TextTable.print(out, COLUMNS, shown);
    out.printf("total: %d files in %d partitions (%d file groups), %,d records written: %,d inserted, %,d updated, "
        + "%,d deleted; %,d bytes written, %d log blocks appended%s%n", totals.get("files").asLong(),
        totals.get("partitions").asLong(), totals.get("fileGroups").asLong(), totals.get("numWrites").asLong(),
        totals.get("numInserts").asLong(), totals.get("numUpdateWrites").asLong(), totals.get("numDeletes").asLong(),
        totals.get("totalWriteBytes").asLong(), totals.get("logBlocks").asLong(),
        shown.size() < rows.size() ? " (" + shown.size() + " of " + rows.size() + " files shown)" : "");
    out.flush();
    return 0;
  }

  /**
   * The blocks this commit appended to a log file, counted from the file's block headers (Hudi's write stat records
   * no block count for an append: its totalLogBlocks is what a compaction read); null when the file is gone.
   */
  private com.fasterxml.jackson.databind.JsonNode logBlocks(Table t, TableInspection store, WriteStatInfo s) {
    if (s.path().isEmpty()) {
      return Json.tree(null);
    }
    String full = StoragePaths.join(t.location(), s.path().get());
    try {
      if (t.storage().info(full).isEmpty()) {
        return Json.tree(null);
      }
    } catch (java.io.IOException e) {
      throw SluiceException.storage("look up", full, e);
    }
    long n = 0;
    try (CloseableIterator<LogBlockInfo> blocks = store.logBlocks(full)) {
      while (blocks.hasNext()) {
        if (blocks.next().instantTime().filter(instant::equals).isPresent()) {
          n++;
        }
      }
    }
    return Json.tree(n);
  }

  private static ObjectNode totals(List<ObjectNode> rows) {
    Set<String> partitions = new HashSet<>();
    Set<String> groups = new HashSet<>();
    ObjectNode t = Json.object();
    t.put("files", rows.size());
    String[] sums = {"numWrites", "numInserts", "numUpdateWrites", "numDeletes", "totalWriteBytes", "logBlocks",
        "totalLogBlocks"};
    for (String f : sums) {
      t.put(f, rows.stream().mapToLong(r -> r.get(f).asLong()).sum());
    }
    for (ObjectNode r : rows) {
      partitions.add(r.get("partition").asText());
      groups.add(r.get("partition").asText() + "/" + r.get("fileId").asText());
    }
    t.put("partitions", partitions.size());
    t.put("fileGroups", groups.size());
    return t;
  }

  /** The metadata of the completed commit at {@code time}; bad input (exit 3) naming {@code param} if there is none. */
  static CommitInfo completedCommit(TableInspection store, String time, String param) {
    InstantInfo i = ViewOptions.completedInstant(store, time, param, "a completed commit 'sluice timeline' lists "
        + "(archived commits are not shown here)");
    return store.commitMetadata(i).orElseThrow(() -> SluiceException.badInput("the command line", param,
        "the completed instant " + time + " is a " + i.action() + ", not a commit",
        "a commit, delta commit or replacecommit 'sluice timeline' lists"));
  }
}
