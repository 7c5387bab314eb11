package dev.sluice.crash;

import dev.sluice.internal.archive.ArchiveLog;
import dev.sluice.internal.archive.ArchivedInstant;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.lsm.LsmInstant;
import dev.sluice.internal.timeline.lsm.LsmTimeline;
import dev.sluice.internal.timeline.avro.PartitionRollback;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteStat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** Checks of a table's files shared by the rollback and crash tests. */
public final class TableChecks {
  private TableChecks() {
  }

  /** Every base and log file under the table (relative paths, sorted), outside {@code .hoodie}. */
  public static Set<String> dataFiles(Path base) {
    Set<String> out = new TreeSet<>();
    try (Stream<Path> s = Files.walk(base)) {
      s.filter(Files::isRegularFile).forEach(p -> {
        String rel = base.relativize(p).toString().replace('\\', '/');
        if (!rel.startsWith(".hoodie/") && FileNames.isDataFileCandidate(p.getFileName().toString())) {
          out.add(rel);
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * Data files that no completed instant names: not a file of a completed (or archived) commit's write stats, and not a log file a
   * completed rollback wrote. Log files of rolled-back instants are allowed to stay when {@code allowFailedLogs} (Hudi
   * leaves them too: their blocks are neutralised by the rollback's command block).
   */
  public static List<String> unreferenced(Path base, boolean allowFailedLogs) {
    TimelineStore store = new TimelineStore(new LocalStorage(), base.toString());
    Timeline tl = store.load();
    Set<String> referenced = new HashSet<>();
    Set<String> failedLogs = new HashSet<>();
    // the latest slices of archived commits are still the table's files
    archivedCommits(base).forEach(md -> addFiles(md, referenced));
    for (Instant i : tl.completed().instants()) {
      if (i.action() == Action.COMMIT || i.action() == Action.DELTACOMMIT || i.action() == Action.REPLACECOMMIT) {
        addFiles(store.readCommitMetadata(i).orElseThrow(), referenced);
      } else if (i.action() == Action.ROLLBACK) {
        RollbackMetadata md = RollbackMetadata.fromAvroBytes(store.read(i), store.pathOf(i));
        for (PartitionRollback p : md.partitionMetadata().values()) {
          String dir = p.partitionPath().isEmpty() ? "" : p.partitionPath() + "/";
          p.rollbackLogFiles().keySet().forEach(f -> referenced.add(relative(base, f)));
          p.logFilesFromFailedCommit().keySet().forEach(f -> failedLogs.add(f.contains("/") ? relative(base, f) : dir + f));
        }
      }
    }
    List<String> out = new ArrayList<>();
    for (String f : dataFiles(base)) {
      boolean failedLog = allowFailedLogs && failedLogs.contains(f);
      if (!referenced.contains(f) && !failedLog) {
        out.add(f);
      }
    }
    return out;
  }

  /**
   * The commit metadata of every archived write: from the archive log on layout 1 (version 6), from the LSM timeline
   * under {@code timeline/history} on layout 2 (versions 8/9).
   */
  public static List<CommitMetadata> archivedCommits(Path base) {
    LocalStorage storage = new LocalStorage();
    TimelineStore store = new TimelineStore(storage, base.toString());
    List<CommitMetadata> out = new ArrayList<>();
    if (!store.layout().slicesByCompletionTime()) {
      for (ArchivedInstant a : ArchiveLog.of(storage, base.toString()).read()) {
        a.commitMetadata().ifPresent(out::add);
      }
      return out;
    }
    TableConfig config = TableConfigStore.read(storage, base.toString());
    if (!Files.isDirectory(Path.of(LsmTimeline.folder(base.toString(), config)))) {
      return out;
    }
    for (LsmInstant i : LsmTimeline.of(storage, base.toString(), config).instantsWithDetails()) {
      boolean write = i.action().equals(Action.COMMIT.id()) || i.action().equals(Action.DELTACOMMIT.id())
          || i.action().equals(Action.REPLACECOMMIT.id());
      if (write && i.metadata().isPresent()) {
        out.add(store.layout().commitMetadata(i.metadata().get(), "archived instant " + i.instantTime()));
      }
    }
    return out;
  }

  private static void addFiles(CommitMetadata md, Set<String> referenced) {
    for (WriteStat s : md.allStats()) {
      s.path().ifPresent(referenced::add);
      String dir = s.partitionPath().isEmpty() ? "" : s.partitionPath() + "/";
      s.logFiles().forEach(l -> referenced.add(dir + l));
    }
  }

  private static String relative(Path base, String path) {
    String b = base.toString();
    return path.startsWith(b + "/") ? path.substring(b.length() + 1) : path;
  }
}
