package dev.sluice.internal.timeline.lsm;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.io.IOException;
import java.io.InputStream;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Moves chosen completed instants of a version-8/9 table's active timeline into its LSM archived timeline, as Hudi
 * 1.x's {@code TimelineArchiverV2} does once it has chosen them: for each instant its row (requested and completion
 * time, completed action, completed file's bytes, plan's bytes; {@code MetadataConversionUtils.createLSMTimelineInstant})
 * with its markers deleted; then one layer-0 file and snapshot for the batch; then the instant files deleted,
 * requested and inflight ones first and completed ones oldest first (so no completed instant looks pending and no
 * gap opens before a commit); then the layers merged and old snapshots cleaned.
 *
 * <p>Which instants to archive is the caller's decision (Sluice's {@code Archiver} and its planner); the caller holds
 * the table's lock. A crash before the snapshot is published leaves the active timeline untouched; after it, the
 * instants are in the archive and the next archival of the same batch finds its file published and only deletes
 * what is left of their active files.
 */
public final class LsmArchival {
  private final Storage storage;
  private final String basePath;
  private final TimelineStore store;
  private final LsmTimelineWriter writer;
  private final ZoneId zone;

  private LsmArchival(Storage storage, String basePath, TimelineStore store, LsmTimelineWriter writer, ZoneId zone) {
    this.storage = storage;
    this.basePath = basePath;
    this.store = store;
    this.writer = writer;
    this.zone = zone;
  }

  /**
   * The archival of the layout-2 table at {@code basePath} with {@code config} (its {@code hoodie.properties});
   * UNSUPPORTED for a layout-1 table, whose archive is log files.
   */
  public static LsmArchival of(Storage storage, String basePath, TableConfig config, LsmSettings settings) {
    TimelineLayout layout = TimelineLayout.of(config);
    if (!layout.slicesByCompletionTime()) {
      throw Errors.unsupported("An LSM archival of a table of version " + layout.tableVersion(),
          "only tables of versions 8 and 9 have an LSM archived timeline; version 6 archives into .hoodie/archived.");
    }
    LsmTimeline timeline = LsmTimeline.of(storage, basePath, config);
    return new LsmArchival(storage, basePath, new TimelineStore(storage, basePath, layout),
        LsmTimelineWriter.of(storage, timeline, settings), config.timelineTimezone().zoneId());
  }

  /** The archived timeline written to. */
  public LsmTimeline timeline() {
    return writer.timeline();
  }

  /**
   * What an archival did.
   *
   * @param archived the archived instants, ascending
   * @param file the layer-0 file holding them
   * @param deletedFiles active timeline files deleted
   * @param merged files written by merging layers, lowest layer first
   */
  public record Result(List<LsmInstant> archived, String file, int deletedFiles, List<String> merged) {
    /** Copies the lists. */
    public Result {
      archived = List.copyOf(archived);
      Objects.requireNonNull(file, "file");
      merged = List.copyOf(merged);
    }
  }

  /**
   * Archives {@code chosen}: completed instants of the active timeline (time and action; a compaction as its
   * {@code commit}, a clustering as its {@code replacecommit}). An instant none of whose files is left (archived by
   * a concurrent archival) is skipped; empty if nothing is left to archive.
   */
  public Optional<Result> archive(List<Instant> chosen) {
    List<StateFile> all = listTimeline();
    List<Group> groups = new ArrayList<>();
    for (Instant c : chosen.stream().sorted().toList()) {
      if (!c.isCompleted()) {
        throw Errors.internal("archival of the pending instant " + c, null);
      }
      List<StateFile> files = all.stream().filter(f -> f.file().instant().time().equals(c.time())
          && f.file().instant().action().completedAs() == c.action().completedAs()).toList();
      if (files.stream().anyMatch(f -> f.file().instant().isCompleted())) {
        groups.add(new Group(files));
      }
    }
    if (groups.isEmpty()) {
      return Optional.empty();
    }
    List<LsmInstant> rows = new ArrayList<>();
    for (Group g : groups) {
      rows.add(row(g));
      deleteMarkers(g.time());
    }
    String file = writer.write(rows);
    int deleted = 0;
    for (Group g : groups) {
      for (StateFile f : g.files()) {
        if (!f.file().instant().isCompleted() && store.deleteArchived(f.file())) {
          deleted++;
        }
      }
    }
    for (Group g : groups) {
      for (StateFile f : g.files()) {
        if (f.file().instant().isCompleted() && store.deleteArchived(f.file())) {
          deleted++;
        }
      }
    }
    List<String> merged = writer.compactAndClean();
    rows.sort(Comparator.comparing(LsmInstant::instantTime));
    return Optional.of(new Result(rows, file, deleted, merged));
  }

  /** The row of one instant ({@code MetadataConversionUtils.createLSMTimelineInstant}). */
  private LsmInstant row(Group g) {
    // several completed files of one time are possible for cleans (no lock in older writers): the latest completion
    StateFile completed = g.files().stream().filter(f -> f.file().instant().isCompleted())
        .max(Comparator.comparing(this::completionTime)).orElseThrow();
    Optional<byte[]> metadata = read(completed).filter(b -> b.length > 0);
    Optional<StateFile> requested = g.state(Instant::isRequested);
    Optional<StateFile> inflight = g.state(Instant::isInflight);
    Optional<StateFile> pending = requested.or(() -> inflight);
    Optional<byte[]> plan = Optional.empty();
    Action pendingAction = pending.map(p -> p.file().instant().action()).orElse(null);
    if (pendingAction == Action.CLEAN) {
      plan = read(pending.get());
    } else if (pendingAction == Action.REPLACECOMMIT || pendingAction == Action.CLUSTERING) {
      // the requested replace metadata, overwritten by the inflight content when that has any
      plan = requested.flatMap(this::read).filter(b -> b.length > 0);
      Optional<byte[]> inflightContent = inflight.flatMap(this::read).filter(b -> b.length > 0);
      if (inflightContent.isPresent()) {
        plan = inflightContent;
      }
    } else if (pendingAction == Action.COMPACTION || pendingAction == Action.LOGCOMPACTION) {
      plan = requested.flatMap(this::read);
    }
    Instant done = completed.file().instant();
    return new LsmInstant(done.time(), completionTime(completed), done.action().id(), metadata, plan);
  }

  /**
   * The completion time in a completed file's name, or for a completed file without one (left by Hudi's upgrade from
   * version 6) its modification time as an instant time, as Hudi 1.x takes it.
   */
  private String completionTime(StateFile f) {
    return f.file().completionTime()
        .orElseGet(() -> InstantTimes.format(java.time.Instant.ofEpochMilli(f.info().modificationTime()), zone));
  }

  private Optional<byte[]> read(StateFile f) {
    try (InputStream in = storage.openRead(f.info().path())) {
      return Optional.of(in.readAllBytes());
    } catch (java.nio.file.NoSuchFileException | java.io.FileNotFoundException e) {
      // deleted since the listing (a concurrent archival or rollback): the state is simply not there
      return Optional.empty();
    } catch (IOException e) {
      throw Errors.storage("read", f.info().path(), e);
    }
  }

  private List<StateFile> listTimeline() {
    String folder = store.layout().folder(basePath);
    List<StateFile> out = new ArrayList<>();
    try {
      for (FileInfo f : storage.list(folder)) {
        if (!f.directory()) {
          store.layout().parse(f.name()).ifPresent(file -> out.add(new StateFile(file, f)));
        }
      }
    } catch (IOException e) {
      throw Errors.storage("list the timeline folder", folder, e);
    }
    return out;
  }

  private void deleteMarkers(String instantTime) {
    String dir = StoragePaths.join(TableLayout.tempFolder(basePath), instantTime);
    try {
      storage.deleteRecursively(dir);
    } catch (IOException e) {
      throw Errors.storage("delete the markers of archived instant " + instantTime + " at", dir, e);
    }
  }

  /** A timeline file and its listing entry. */
  private record StateFile(TimelineLayout.InstantFile file, FileInfo info) {
  }

  /** The state files of one instant. */
  private record Group(List<StateFile> files) {
    String time() {
      return files.get(0).file().instant().time();
    }

    Optional<StateFile> state(java.util.function.Predicate<Instant> which) {
      return files.stream().filter(f -> which.test(f.file().instant())).findFirst();
    }
  }
}
