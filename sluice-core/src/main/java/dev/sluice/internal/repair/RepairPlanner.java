package dev.sluice.internal.repair;

import dev.sluice.api.SluiceException;
import dev.sluice.internal.clean.CleanAvro;
import dev.sluice.internal.commit.Heartbeats;
import dev.sluice.internal.commit.Markers;
import dev.sluice.internal.compact.CompactionPlan;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.BaseFileName;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.LogFileName;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.internal.timeline.avro.RollbackPlan;
import dev.sluice.internal.timeline.avro.RestoreMetadata;
import dev.sluice.internal.savepoint.SavepointMetadata;
import dev.sluice.internal.table.PartitionMetadata;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Looks for damage and plans its repair; reads only. What it looks at, and what it plans (each case decided by what
 * can be done without losing a row a reader could still get):
 * <ul>
 *   <li>{@code hoodie.properties}: missing or damaged with a valid backup → restored from the backup; a backup left
 *       beside a valid config → deleted.</li>
 *   <li>Instant files that are empty where they must hold content, or do not decode: a completed commit or delta
 *       commit → its metadata rebuilt from the files the instant wrote (base files named by it, log blocks it wrote);
 *       a pending write → rolled back if its writer is gone; a pending clean, or a rollback or compaction not yet
 *       started → its files removed (nothing was done yet, or what was done needed doing); a completed clean or rollback
 *       → its files removed (its work is done; only its record goes). Savepoints, restores, replacecommits and started
 *       rollbacks and compactions are reported only.</li>
 *   <li>Log blocks cut short or not decoding → the file rewritten without them (the rows of a damaged block written by a
 *       committed instant are lost either way: the report names them).</li>
 *   <li>Base and log files no instant accounts for (of an instant that is neither completed, pending, nor archived;
 *       or of a completed commit whose metadata does not list them) → deleted.</li>
 *   <li>Markers and heartbeats of instants no longer pending, and temp files older than ten minutes → deleted.</li>
 *   <li>Folders holding committed data files but no {@code .hoodie_partition_metadata} (readers do not see them) → the
 *       file written.</li>
 * </ul>
 */
public final class RepairPlanner {
  /** Temp files younger than this may belong to a write in progress. */
  static final long TEMP_FILE_MIN_AGE_MILLIS = 10 * 60 * 1000L;

  private final Storage storage;
  private final String basePath;
  private final TimelineStore store;
  private final Predicate<String> writerGone;
  private final Consumer<String> rollback;
  private final long now;

  /**
   * @param writerGone whether the writer of a pending write is gone (so that the write may be rolled back)
   * @param rollback rolls back the pending write at a time (the repair's step for a pending write with a broken file)
   * @param now the wall clock, for the age of temp files
   */
  public RepairPlanner(Storage storage, String basePath, Predicate<String> writerGone, Consumer<String> rollback, long now) {
    this.storage = storage;
    this.basePath = basePath;
    this.store = new TimelineStore(storage, basePath);
    this.writerGone = writerGone;
    this.rollback = rollback;
    this.now = now;
  }

  /** Every finding, in the order the repair fixes them. */
  public List<Finding> plan() {
    List<Finding> out = new ArrayList<>();
    config(out);
    Timeline tl = store.load();
    Listing listing = Listing.of(storage, basePath, store.layout().folder(basePath));
    Map<String, LogFileCheck> logs = new LinkedHashMap<>();
    for (FileInfo f : listing.logFiles()) {
      logs.put(f.path(), LogFileCheck.scan(storage, f.path(), f.length()));
    }
    Set<String> rebuilt = new HashSet<>();
    Map<String, CommitMetadata> readable = new HashMap<>();
    timeline(tl, listing, logs, rebuilt, readable, out);
    Set<String> leftovers = leftovers(tl, listing, logs, rebuilt, readable, out);
    for (LogFileCheck c : logs.values()) {
      if (!c.damaged().isEmpty() && !leftovers.contains(c.path())) {
        out.add(corruptLog(c, tl));
      }
    }
    stale(tl, listing, out);
    partitionMetadata(tl, listing, leftovers, out);
    out.sort(Comparator.comparing(Finding::kind));
    return out;
  }

  private void config(List<Finding> out) {
    String cfg = TableLayout.propertiesFile(basePath);
    switch (TableConfigStore.state(storage, basePath)) {
      case RESTORE_FROM_BACKUP -> out.add(Finding.fix(Finding.Kind.TABLE_CONFIG, cfg,
          TableConfigStore.FILE + " is missing or damaged (its checksum does not match); " + TableConfigStore.BACKUP_FILE
              + " is valid", "restore it from " + TableConfigStore.BACKUP_FILE, b -> {
                b.keep(cfg);
                TableConfigStore.restoreFromBackup(storage, basePath);
              }));
      case STALE_BACKUP -> out.add(Finding.fix(Finding.Kind.TABLE_CONFIG, TableLayout.propertiesBackupFile(basePath),
          TableConfigStore.BACKUP_FILE + " is left beside a valid " + TableConfigStore.FILE + " (an update that stopped "
              + "after writing the new config)", "delete the stale backup", b -> {
                b.keep(TableLayout.propertiesBackupFile(basePath));
                TableConfigStore.deleteBackup(storage, basePath);
              }));
      case UNREPAIRABLE -> out.add(Finding.report(Finding.Kind.TABLE_CONFIG, cfg, "neither " + TableConfigStore.FILE
          + " nor " + TableConfigStore.BACKUP_FILE + " is a valid table config", "none possible: restore "
          + TableConfigStore.FILE + " from a copy of the table"));
      case SOUND -> {
        // nothing to do
      }
      default -> throw Errors.internal("config state", null);
    }
  }

  // ---- the timeline ----

  private void timeline(Timeline tl, Listing listing, Map<String, LogFileCheck> logs, Set<String> rebuilt,
      Map<String, CommitMetadata> readable, List<Finding> out) {
    Set<String> handled = new HashSet<>();
    for (Instant i : tl.instants()) {
      String key = i.time() + "." + i.action().completedAs().id();
      if (handled.contains(key)) {
        continue;
      }
      Optional<String> broken = brokenState(tl, i, listing, logs, readable);
      if (broken.isEmpty()) {
        continue;
      }
      handled.add(key);
      out.add(brokenInstant(tl, i, broken.get(), listing, logs, rebuilt));
    }
  }

  /** Why the state file of {@code i} is damaged, if it is. */
  private Optional<String> brokenState(Timeline tl, Instant i, Listing listing, Map<String, LogFileCheck> logs,
      Map<String, CommitMetadata> readable) {
    byte[] bytes = store.readIfExists(i).orElse(new byte[0]);
    String where = store.pathOf(i);
    Action a = i.action();
    try {
      switch (a) {
        case COMMIT, DELTACOMMIT, REPLACECOMMIT -> {
          if (a == Action.REPLACECOMMIT && !i.isCompleted()) {
            // a clustering plan (Avro); Sluice neither writes nor runs those
            return Optional.empty();
          }
          // the layout decodes, by the file's name as Hudi does: JSON on version 6, an Avro container on 8/9 (JSON for a
          // completed file without completion time, which Hudi's upgrade leaves); both read an empty file as empty
          // metadata, as Hudi's readers do (0.15's JSON serde and 1.x's CommitMetadataSerDeV2 alike)
          CommitMetadata md = store.layout().commitMetadata(bytes,
              new TimelineLayout.InstantFile(i, i.isCompleted() ? tl.completionTime(i) : Optional.empty()), where);
          if (i.isCompleted()) {
            if (bytes.length == 0 && !CommitRebuild.filesOf(i.time(), listing, logs).isEmpty()) {
              return Optional.of("the commit file is empty, but the instant wrote files");
            }
            readable.put(i.time(), md);
          }
        }
        case CLEAN -> {
          if (i.isCompleted()) {
            if (bytes.length == 0 || CleanAvro.decodeMetadata(bytes, where).isEmpty()) {
              return Optional.of("the clean metadata is empty");
            }
          } else if ((i.isRequested() || bytes.length > 0) && CleanAvro.decodePlan(bytes, basePath, where).isEmpty()) {
            return Optional.of("the clean plan is empty");
          }
        }
        case ROLLBACK -> {
          if (i.isCompleted()) {
            RollbackMetadata.fromAvroBytes(bytes, where);
          } else if (i.isRequested()) {
            RollbackPlan.fromAvroBytes(bytes, where);
          }
        }
        case COMPACTION, LOGCOMPACTION -> {
          if (i.isRequested()) {
            CompactionPlan.fromAvroBytes(bytes, where);
          }
        }
        case SAVEPOINT -> {
          if (i.isCompleted()) {
            SavepointMetadata.fromAvroBytes(bytes, where);
          }
        }
        case RESTORE -> {
          if (i.isCompleted()) {
            RestoreMetadata.fromAvroBytes(bytes, where);
          }
        }
        default -> {
          // other actions carry nothing Sluice reads
        }
      }
    } catch (SluiceException e) {
      if (e.kind() != SluiceException.Kind.BAD_TABLE) {
        throw e;
      }
      // the decoder's complaint is the finding
      return Optional.of(bytes.length == 0 ? "the file is empty"
          : "the file does not decode: " + Finding.reason(e.getMessage()));
    }
    return Optional.empty();
  }

  private Finding brokenInstant(Timeline tl, Instant i, String why, Listing listing, Map<String, LogFileCheck> logs,
      Set<String> rebuilt) {
    String path = store.pathOf(i);
    String what = i.action().id() + " " + i.time() + " (" + i.state().name().toLowerCase(java.util.Locale.ROOT) + "): " + why;
    Finding.Kind k = Finding.Kind.BROKEN_INSTANT;
    boolean completed = tl.filter(x -> x.time().equals(i.time()) && x.action().completedAs() == i.action().completedAs()
        && x.isCompleted()).lastInstant().isPresent();
    switch (i.action()) {
      case COMMIT, DELTACOMMIT -> {
        if (i.isCompleted()) {
          CommitRebuild rebuild = CommitRebuild.of(storage, store, tl, i, listing, logs);
          rebuilt.add(i.time());
          return Finding.fix(k, path, what, "rebuild its commit metadata from the files it wrote (" + rebuild.summary()
              + "); the damaged file goes to the repair backup", rebuild::write);
        }
        if (!writerGone.test(i.time())) {
          return Finding.report(k, path, what, "none while its writer is alive (heartbeat); run the repair again later");
        }
        return Finding.fix(k, path, what, "roll back the failed write (as 'sluice rollback TABLE " + i.time() + "')", b -> {
          keepStates(b, i);
          rollback.accept(i.time());
        });
      }
      case CLEAN -> {
        return Finding.fix(k, path, what, completed ? "remove the clean's instant files: the files it cleaned stay "
            + "deleted, only its record goes" : "remove the pending clean's instant files: the next clean plans again",
            b -> removeInstant(b, i));
      }
      case ROLLBACK -> {
        boolean started = !tl.filter(x -> x.time().equals(i.time()) && x.action() == Action.ROLLBACK && x.isInflight())
            .isEmpty();
        if (completed || !started) {
          return Finding.fix(k, path, what, completed ? "remove the rollback's instant files: the rollback is done, "
              + "only its record goes" : "remove the rollback that never started: the write it was for stays pending "
              + "and is rolled back again", b -> removeInstant(b, i));
        }
        return Finding.report(k, path, what, "none: the rollback started and its plan is unreadable; restore the plan "
            + "from a copy");
      }
      case COMPACTION, LOGCOMPACTION -> {
        boolean started = !tl.filter(x -> x.time().equals(i.time()) && (x.isInflight() || x.isCompleted())).isEmpty();
        if (!started) {
          return Finding.fix(k, path, what, "remove the compaction plan that never ran (nothing was written); "
              + "compaction plans again", b -> removeInstant(b, i));
        }
        return Finding.report(k, path, what, "none: the compaction started; restore its plan from a copy");
      }
      default -> {
        return Finding.report(k, path, what, "none: restore the file from a copy");
      }
    }
  }

  private void keepStates(RepairBackup b, Instant i) {
    for (Instant s : List.of(Instant.requested(i.time(), i.action()), Instant.inflight(i.time(), i.action()),
        Instant.completed(i.time(), i.action().completedAs()))) {
      b.keep(store.pathOf(s));
    }
  }

  private void removeInstant(RepairBackup b, Instant i) {
    keepStates(b, i);
    store.deleteInstantFiles(Instant.completed(i.time(), i.action()));
  }

  // ---- files no instant accounts for ----

  private Set<String> leftovers(Timeline tl, Listing listing, Map<String, LogFileCheck> logs, Set<String> rebuilt,
      Map<String, CommitMetadata> readable, List<Finding> out) {
    Timeline commits = tl.commitsTimeline();
    Map<String, Set<String>> listed = new HashMap<>();
    readable.forEach((time, md) -> listed.put(time, referenced(md)));
    Set<String> found = new HashSet<>();
    for (FileInfo f : listing.baseFiles()) {
      String t = FileNames.parseBase(f.name()).map(BaseFileName::instantTime).orElseThrow();
      Optional<String> why = Optional.empty();
      if (tl.isInflight(t) || commits.isBeforeStart(t) || rebuilt.contains(t)) {
        continue;
      }
      if (commits.isCompleted(t)) {
        Set<String> names = listed.get(t);
        if (names != null && !names.isEmpty() && !names.contains(relative(f.path()))) {
          why = Optional.of("completed commit " + t + " does not list it (a duplicate a failed attempt left)");
        }
      } else {
        why = Optional.of("instant " + t + " is neither completed, pending nor archived (a failed write's output)");
      }
      why.ifPresent(w -> {
        found.add(f.path());
        out.add(deleteFile(f.path(), "base file no instant accounts for: " + w));
      });
    }
    for (LogFileCheck c : logs.values()) {
      Optional<String> why = leftoverLog(c, tl);
      why.ifPresent(w -> {
        found.add(c.path());
        out.add(deleteFile(c.path(), "log file no instant accounts for: " + w));
      });
    }
    return found;
  }

  /** Why a log file is a failed write's leftover: no command block and every block by an instant that is gone. */
  private static Optional<String> leftoverLog(LogFileCheck c, Timeline tl) {
    if (c.blocks().isEmpty()) {
      return c.length() == 0 ? Optional.of("it is empty") : Optional.empty();
    }
    Set<String> instants = new java.util.TreeSet<>();
    for (LogFileCheck.Block b : c.blocks()) {
      if (b.command() || b.instant().isEmpty()) {
        return Optional.empty();
      }
      String t = b.instant().get();
      if (tl.commitsTimeline().containsOrBeforeStart(t) || tl.isInflight(t)) {
        return Optional.empty();
      }
      instants.add(t);
    }
    return Optional.of("its blocks were written by " + instants + ", which are neither completed, pending nor archived");
  }

  private Finding deleteFile(String path, String problem) {
    return Finding.fix(Finding.Kind.LEFTOVER_FILE, path, problem, "delete it (readers already ignore it)", b -> {
      b.keep(path);
      KillPoints.reach("repair.delete-file");
      try {
        storage.delete(path);
      } catch (IOException e) {
        throw Errors.storage("delete", path, e);
      }
    });
  }

  private Set<String> referenced(CommitMetadata md) {
    Set<String> out = new HashSet<>();
    for (WriteStat s : md.allStats()) {
      s.path().ifPresent(p -> out.add(p.startsWith("/") ? relative(p) : p));
      String dir = s.partitionPath().isEmpty() ? "" : s.partitionPath() + "/";
      s.logFiles().forEach(l -> out.add(dir + l));
    }
    return out;
  }

  // ---- damaged log blocks ----

  private Finding corruptLog(LogFileCheck c, Timeline tl) {
    Timeline completed = tl.commitsTimeline().completed();
    List<String> parts = new ArrayList<>();
    long lostRows = 0;
    Set<String> lostFrom = new java.util.TreeSet<>();
    for (LogFileCheck.Block b : c.damaged()) {
      boolean committed = b.instant().filter(completed::containsOrBeforeStart).isPresent();
      parts.add("offset " + b.offset() + " (" + b.size() + " bytes" + b.instant().map(t -> ", instant " + t
          + (committed ? ", committed" : ", not committed")).orElse(", writer unreadable") + "): " + b.damage().orElseThrow());
      if (committed) {
        lostFrom.add(b.instant().get());
        lostRows++;
      }
    }
    String action = c.sound().isEmpty() ? "delete the file (no block in it is readable)"
        : "rewrite the file with its " + c.sound().size() + " readable block(s), dropping the damaged one(s)";
    action += lostRows > 0 ? "; the damaged blocks of committed instants " + lostFrom + " cannot be read either way: to "
        + "get those rows back, restore the file from a backup instead" : "; no committed row is lost";
    return Finding.fix(Finding.Kind.CORRUPT_LOG_BLOCK, c.path(), c.damaged().size() + " damaged block(s): "
        + String.join("; ", parts), action, c::rewrite);
  }

  // ---- stale markers, heartbeats, temp files ----

  private void stale(Timeline tl, Listing listing, List<Finding> out) {
    for (FileInfo d : list(TableLayout.tempFolder(basePath))) {
      String name = d.name();
      if (d.directory() && name.chars().allMatch(Character::isDigit) && !tl.isInflight(name)) {
        out.add(Finding.fix(Finding.Kind.STALE_STATE, d.path(), "markers of instant " + name + ", which is not pending",
            "delete them", b -> {
              b.keepTree(d.path());
              new Markers(storage, basePath, name).deleteAll();
            }));
      }
    }
    Heartbeats hb = new Heartbeats(storage, basePath);
    for (FileInfo f : list(TableLayout.heartbeatFolder(basePath))) {
      String name = f.name();
      if (!f.directory() && name.chars().allMatch(Character::isDigit) && !tl.isInflight(name)) {
        out.add(Finding.fix(Finding.Kind.STALE_STATE, f.path(), "heartbeat of instant " + name + ", which is not pending",
            "delete it", b -> {
              b.keep(f.path());
              hb.delete(name);
            }));
      }
    }
    for (FileInfo f : listing.tempFiles()) {
      if (now - f.modificationTime() >= TEMP_FILE_MIN_AGE_MILLIS) {
        out.add(Finding.fix(Finding.Kind.STALE_STATE, f.path(), "temp file of a write that stopped before publishing it",
            "delete it", b -> {
              b.keep(f.path());
              try {
                storage.delete(f.path());
              } catch (IOException e) {
                throw Errors.storage("delete", f.path(), e);
              }
            }));
      }
    }
  }

  // ---- partitions readers cannot see ----

  private void partitionMetadata(Timeline tl, Listing listing, Set<String> leftovers, List<Finding> out) {
    Optional<String> latest = tl.commitsTimeline().completed().lastInstant().map(Instant::time);
    for (Map.Entry<String, List<FileInfo>> e : listing.dataFilesByFolder().entrySet()) {
      String rel = e.getKey();
      if (listing.partitions().contains(rel) || latest.isEmpty()) {
        continue;
      }
      boolean committed = e.getValue().stream().anyMatch(f -> !leftovers.contains(f.path()));
      if (committed) {
        String time = latest.get();
        out.add(Finding.fix(Finding.Kind.PARTITION_METADATA, StoragePaths.join(basePath, rel), "the folder holds "
            + e.getValue().size() + " data file(s) but no " + PartitionMetadata.FILE + ", so readers do not see it",
            "write its " + PartitionMetadata.FILE, b -> PartitionMetadata.ensure(storage, basePath, rel, time)));
      }
    }
  }

  private List<FileInfo> list(String dir) {
    try {
      return storage.list(dir);
    } catch (IOException e) {
      throw Errors.storage("list", dir, e);
    }
  }

  private String relative(String path) {
    String prefix = basePath.endsWith("/") ? basePath : basePath + "/";
    return path.startsWith(prefix) ? path.substring(prefix.length()) : path;
  }

  /** One walk of the table's folders (outside {@code .hoodie}): data files by folder, partitions, temp files. */
  record Listing(Map<String, List<FileInfo>> dataFilesByFolder, Set<String> partitions, List<FileInfo> tempFiles) {
    static Listing of(Storage storage, String basePath, String timelineFolder) {
      Map<String, List<FileInfo>> data = new LinkedHashMap<>();
      Set<String> partitions = new HashSet<>();
      List<FileInfo> temps = new ArrayList<>();
      Deque<String> todo = new ArrayDeque<>();
      todo.add("");
      while (!todo.isEmpty()) {
        String rel = todo.poll();
        String dir = rel.isEmpty() ? basePath : StoragePaths.join(basePath, rel);
        List<FileInfo> entries;
        try {
          entries = storage.list(dir);
        } catch (IOException e) {
          throw Errors.storage("list", dir, e);
        }
        for (FileInfo f : entries) {
          String name = f.name();
          if (f.directory()) {
            if (!name.startsWith(".")) {
              todo.add(rel.isEmpty() ? name : rel + "/" + name);
            }
          } else if (PartitionMetadata.isMetadataFileName(name)) {
            partitions.add(rel);
          } else if (name.startsWith(".") && name.endsWith(".tmp")) {
            temps.add(f);
          } else if (FileNames.parseBase(name).isPresent() || FileNames.parseLog(name).isPresent()) {
            data.computeIfAbsent(rel, k -> new ArrayList<>()).add(f);
          }
        }
      }
      // .hoodie holds the config's temp files; the timeline folder (.hoodie/timeline on versions 8/9) its own
      for (String meta : new java.util.LinkedHashSet<>(List.of(TableLayout.metaFolder(basePath), timelineFolder))) {
        try {
          for (FileInfo f : storage.list(meta)) {
            if (!f.directory() && f.name().startsWith(".") && f.name().endsWith(".tmp")) {
              temps.add(f);
            }
          }
        } catch (IOException e) {
          throw Errors.storage("list", meta, e);
        }
      }
      return new Listing(data, partitions, temps);
    }

    List<FileInfo> baseFiles() {
      return dataFilesByFolder.values().stream().flatMap(List::stream)
          .filter(f -> FileNames.parseBase(f.name()).isPresent()).toList();
    }

    List<FileInfo> logFiles() {
      return dataFilesByFolder.values().stream().flatMap(List::stream)
          .filter(f -> FileNames.parseLog(f.name()).isPresent()).toList();
    }

    /** The folder (relative) a file of this listing lies in. */
    String folderOf(FileInfo f) {
      for (Map.Entry<String, List<FileInfo>> e : dataFilesByFolder.entrySet()) {
        if (e.getValue().contains(f)) {
          return e.getKey();
        }
      }
      throw Errors.internal("file " + f.path() + " is not in the listing", null);
    }

    /** The log file name of a listed log file. */
    static LogFileName logName(FileInfo f) {
      return FileNames.parseLog(f.name()).orElseThrow();
    }
  }
}
