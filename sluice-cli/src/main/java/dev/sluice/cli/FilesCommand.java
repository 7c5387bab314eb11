package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.fsview.FileGroup;
import dev.sluice.fsview.FileGroupId;
import dev.sluice.fsview.FileSlice;
import dev.sluice.fsview.FileSystemView;
import dev.sluice.fsview.LogFile;
import dev.sluice.log.LogDump;
import dev.sluice.log.LogDump.BlockSummary;
import dev.sluice.util.CloseableIterator;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice files}: partitions, file groups and the files a snapshot of each group reads: the base file and
 * every log file with its blocks.
 */
@Command(name = "files", description = "List partitions, file groups and the base and log files (with their blocks) of their "
    + "latest slices.")
final class FilesCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    FileSystemView view = t.fileSystemView();
    PrintWriter out = spec.commandLine().getOut();
    Map<FileGroupId, String> pending = view.pendingCompactionOperations();
    long groups = 0;
    long bytes = 0;
    long logs = 0;
    for (String partition : view.partitions()) {
      List<FileGroup> fgs = view.fileGroups(partition);
      out.printf("partition %s (%d file groups)%n", partition.isEmpty() ? "<none>" : partition, fgs.size());
      Map<String, FileSlice> merged = new HashMap<>();
      view.latestMergedSlices(partition).forEach(s -> merged.put(s.fileId(), s));
      for (FileGroup fg : fgs) {
        FileSlice slice = merged.get(fg.id().fileId());
        if (slice == null) {
          continue;
        }
        groups++;
        String compaction = pending.get(fg.id());
        out.printf("  file group %s  slice %s%s%n", fg.id().fileId(), slice.baseInstant(),
            compaction == null ? "" : "  (compaction " + compaction + " pending)");
        if (slice.baseFile().isPresent()) {
          out.printf("    base %s  %,d bytes%n", slice.baseFile().get().fileName(), slice.baseFile().get().size());
          bytes += slice.baseFile().get().size();
        }
        for (LogFile log : slice.logFiles()) {
          out.printf("    log  %s  %,d bytes%n", log.fileName(), log.size());
          bytes += log.size();
          logs++;
          try (CloseableIterator<BlockSummary> blocks = LogDump.blocks(t.storage(), log.path())) {
            while (blocks.hasNext()) {
              out.println("      " + LogsCommand.describe(blocks.next()));
            }
          }
        }
      }
    }
    out.printf("%d file groups, %d log files, %,d bytes in latest slices%n", groups, logs, bytes);
    out.flush();
    return 0;
  }
}
