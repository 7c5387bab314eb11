package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.fsview.FileGroup;
import dev.sluice.fsview.FileSlice;
import dev.sluice.fsview.FileSystemView;
import dev.sluice.fsview.LogFile;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice files}: partitions, file groups and the files of each group's latest slice. */
@Command(name = "files", description = "List partitions, file groups and the base and log files of their latest slices.")
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
    long groups = 0;
    long bytes = 0;
    for (String partition : view.partitions()) {
      List<FileGroup> fgs = view.fileGroups(partition);
      out.printf("partition %s (%d file groups)%n", partition.isEmpty() ? "<none>" : partition, fgs.size());
      for (FileGroup fg : fgs) {
        if (fg.latestSlice().isEmpty()) {
          continue;
        }
        groups++;
        FileSlice slice = fg.latestSlice().get();
        out.printf("  file group %s  slice %s%n", fg.id().fileId(), slice.baseInstant());
        if (slice.baseFile().isPresent()) {
          out.printf("    base %s  %,d bytes%n", slice.baseFile().get().fileName(), slice.baseFile().get().size());
          bytes += slice.baseFile().get().size();
        }
        for (LogFile log : slice.logFiles()) {
          out.printf("    log  %s  %,d bytes%n", log.fileName(), log.size());
          bytes += log.size();
        }
      }
    }
    out.printf("%d file groups, %,d bytes in latest slices%n", groups, bytes);
    out.flush();
    return 0;
  }
}
