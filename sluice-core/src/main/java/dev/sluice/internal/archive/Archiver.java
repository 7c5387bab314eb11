package dev.sluice.internal.archive;

import dev.sluice.internal.clean.CleanSettings;
import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.mdt.write.MetadataTableWriter;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.table.MetadataTable;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.lsm.LsmArchival;
import dev.sluice.internal.util.KillPoints;
import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;

/**
 * Archival: moves old completed instants off the active timeline into the archived timeline, so that
 * {@code .hoodie/} does not grow without bound ({@code HoodieTimelineArchiver}). Every state file of each chosen
 * instant (requested, inflight, completed) becomes one {@code HoodieArchivedMetaEntry} in a new archive file; then
 * the state files are deleted, requested and inflight ones first and completed ones oldest first, so the active
 * timeline never shows a pending instant that was completed or a gap before a commit.
 *
 * <p>Data files of archived commits stay valid: readers take any base instant older than the first instant of the
 * active timeline as committed. A crash after the archive file is written but before the state files are gone
 * only means the next archival archives those instants again; readers of the archive see each state once.
 *
 * <p>On a version-8/9 table the instants go into the LSM archived timeline instead ({@link LsmArchival}), chosen by
 * Hudi 1.x's rules ({@link ArchivalPlanner}).
 */
public final class Archiver {
  private final Storage storage;
  private final String basePath;
  private final ArchiveSettings settings;
  private final CleanSettings cleanSettings;
  private final TimelineStore store;
  private final InstantLifecycle lifecycle;
  private final boolean metadataEnabled;
  /** For the archiver of a metadata table: the base path of its data table. */
  private final Optional<String> dataTable;

  private Archiver(Storage storage, String basePath, ArchiveSettings settings, CleanSettings cleanSettings,
      InstantLifecycle lifecycle, boolean metadataEnabled) {
    this(storage, basePath, settings, cleanSettings, lifecycle, metadataEnabled, Optional.empty());
    settings.checkAgainst(cleanSettings);
  }

  private Archiver(Storage storage, String basePath, ArchiveSettings settings, CleanSettings cleanSettings,
      InstantLifecycle lifecycle, boolean metadataEnabled, Optional<String> dataTable) {
    this.dataTable = dataTable;
    this.storage = storage;
    this.basePath = basePath;
    this.settings = settings;
    this.cleanSettings = cleanSettings;
    // the metadata table's timeline files have their own kill points
    this.store = dataTable.isPresent() ? new TimelineStore(storage, basePath, "metadata.timeline")
        : new TimelineStore(storage, basePath);
    this.lifecycle = lifecycle;
    this.metadataEnabled = metadataEnabled;
  }

  /**
   * An archiver with archival and cleaner settings; checks the lock options of {@code commit}. Under optimistic concurrency
   * control it archives holding the table lock, as Hudi's archiver does: two archivals at once would both write
   * the next archive file version.
   */
  public static Archiver of(Storage storage, String basePath, ArchiveSettings settings, CleanSettings clean,
      CommitSettings commit) {
    InstantLifecycle lifecycle = InstantLifecycle.of(storage, basePath, commit);
    return new Archiver(storage, basePath, settings, clean, lifecycle, commit.metadataEnabled());
  }

  /** An archiver with explicit settings, for a single writer (no lock). */
  public static Archiver of(Storage storage, String basePath, ArchiveSettings settings, CleanSettings cleanSettings) {
    return new Archiver(storage, basePath, settings, cleanSettings, InstantLifecycle.withoutLock(storage, basePath, false),
        false);
  }

  /**
   * The archiver of the metadata table of the data table at {@code dataBasePath} ({@code .hoodie/metadata}), as Hudi
   * 0.15's metadata writer archives it after its compaction: the data table's {@code hoodie.keep.min.commits} and
   * {@code hoodie.keep.max.commits} each plus one, the metadata cleaner's window ({@code metadataClean}), its
   * compaction trigger ({@code metadataMaxDeltaCommits}) for the Merge-on-Read rule, and never an instant at or
   * after the data table's earliest commit or earliest pending instant
   * ({@code TimelineUtils.getEarliestInstantForMetadataArchival}): a metadata rollback of a data-table instant needs
   * its deltacommit on the active timeline. Into the metadata table's own archived timeline
   * ({@code .hoodie/metadata/.hoodie/archived}). No lock of its own: the caller holds the data table's.
   */
  public static Archiver ofMetadataTable(Storage storage, String dataBasePath, ArchiveSettings data,
      CleanSettings metadataClean, int metadataMaxDeltaCommits) {
    ArchiveSettings settings = new ArchiveSettings(data.minCommits() + 1, data.maxCommits() + 1, data.batch(),
        metadataMaxDeltaCommits, false, data.lsm());
    String mdtBase = TableLayout.metadataTableFolder(dataBasePath);
    // Hudi only warns when the metadata cleaner's window is longer than archival keeps; the window raises the
    // bounds anyway (ArchivalPlanner.bounds)
    return new Archiver(storage, mdtBase, settings, metadataClean, InstantLifecycle.withoutLock(storage, mdtBase, false),
        false, Optional.of(dataBasePath));
  }

  /** The instants an archival now would move, in their latest states; writes nothing. */
  public List<Instant> preview() {
    return planner().select(store.load(), store);
  }

  /**
   * Why an archival now would move nothing, naming the setting or instant that holds the instants back; empty if it
   * would move something. Writes nothing.
   */
  public Optional<String> heldBack() {
    Timeline timeline = store.load();
    ArchivalPlanner planner = planner();
    List<Instant> chosen = planner.select(timeline, store);
    if (chosen.isEmpty()) {
      return Optional.of(planner.heldBack(timeline, store));
    }
    return gate().filter(g -> g.admit(chosen).isEmpty()).map(Gate::reason);
  }

  /**
   * The instant archival stops before beyond what the planner chose, and why. For a metadata table's archiver: the
   * data table's oldest active instant. For a data table with the metadata table on: the metadata table's latest
   * compaction (its readers drop log blocks of instants gone from the active timeline, so only instants already in
   * a compacted metadata base file may go; none before its first compaction). Empty otherwise.
   */
  private Optional<Gate> gate() {
    if (dataTable.isPresent()) {
      return earliestDataInstant(dataTable.get()).map(limit -> new Gate(limit, "the metadata table keeps its instants "
          + "from " + limit + ", the data table's oldest active instant, on"));
    }
    if (!metadataEnabled) {
      return Optional.empty();
    }
    return MetadataTableWriter.of(storage, basePath).archiveBefore().map(before -> new Gate(before, before.isEmpty()
        ? "the metadata table has not been compacted yet: instants are archived only once its compaction "
            + "covers them (every hoodie.metadata.compact.max.delta.commits of its delta commits)"
        : "the metadata table's latest compaction is " + before + ": instants after it are archived only "
            + "once its next compaction covers them (hoodie.metadata.compact.max.delta.commits)"));
  }

  /** Archival goes only before {@code before} (exclusive), for {@code reason}. */
  private record Gate(String before, String reason) {
    List<Instant> admit(List<Instant> chosen) {
      return chosen.stream().filter(i -> i.time().compareTo(before) < 0).toList();
    }
  }

  /**
   * True if an archival would move something of {@code known} (this archiver's timeline); for a metadata table's
   * archiver the data table's timeline is read only when the limits of {@code known} alone allow something.
   */
  public boolean wouldArchive(Timeline known) {
    List<Instant> chosen = planner().select(known, store);
    if (chosen.isEmpty() || dataTable.isEmpty()) {
      return !chosen.isEmpty();
    }
    return gate().map(g -> !g.admit(chosen).isEmpty()).orElse(true);
  }

  /** Archives what the limits allow, if anything (under the table lock with several writers). */
  public ArchiveResult archive() {
    return lifecycle.locked("archive the timeline", () -> archiveFrom(store.load()));
  }

  /**
   * As {@link #archive()}, but first decides from {@code known} (a writer's timeline plus its new commit): if the
   * limits ({@code hoodie.keep.max.commits}) archive nothing of it, nothing is listed. Otherwise archives from a
   * fresh load.
   */
  public ArchiveResult archive(Timeline known) {
    if (planner().select(known, store).isEmpty()) {
      return ArchiveResult.none();
    }
    return lifecycle.locked("archive the timeline", () -> archiveFrom(store.load()));
  }

  private ArchiveResult archiveFrom(Timeline timeline) {
    ArchivalPlanner planner = planner();
    List<Instant> chosen = planner.select(timeline, store);
    if (chosen.isEmpty()) {
      return ArchiveResult.none();
    }
    if (dataTable.isEmpty() && !metadataEnabled) {
      MetadataTable.removeIfPresent(storage, basePath);
    }
    Optional<Gate> gate = gate();
    if (gate.isPresent()) {
      chosen = gate.get().admit(chosen);
      if (chosen.isEmpty()) {
        return ArchiveResult.none();
      }
    }
    if (timeline.layout().archivesToLsmTimeline()) {
      return archiveToLsm(chosen);
    }
    List<StateFile> files = stateFiles(chosen);
    if (files.isEmpty()) {
      // a concurrent archival took them
      return ArchiveResult.none();
    }
    ZoneId zone = zone();
    List<GenericRecord> entries = new ArrayList<>();
    List<StateFile> archived = new ArrayList<>();
    for (StateFile f : files) {
      Optional<byte[]> content = store.readIfExists(f.instant());
      if (content.isEmpty()) {
        continue;
      }
      String transition = InstantTimes.format(java.time.Instant.ofEpochMilli(f.info().modificationTime()), zone);
      entries.add(ArchiveEntries.entry(f.instant(), content.get(), transition, f.info().path()));
      archived.add(f);
    }
    if (entries.isEmpty()) {
      // every file vanished since the listing: a concurrent archival took them
      return ArchiveResult.none();
    }
    String written = ArchiveLog.of(storage, basePath).append(entries, settings.batch());
    KillPoints.reach(dataTable.isPresent() ? "metadata.archive.written" : "archive.written");
    for (Instant i : chosen) {
      deleteMarkers(i.time());
    }
    // pending states first: deleting a completed file first would make its instant look pending
    for (StateFile f : archived) {
      if (!f.instant().isCompleted()) {
        store.delete(f.instant());
      }
    }
    archived.stream().filter(f -> f.instant().isCompleted()).map(StateFile::instant).sorted()
        .forEach(store::delete);
    return new ArchiveResult(chosen.stream().sorted().toList(), archived.size(), Optional.of(written));
  }

  /**
   * Versions 8/9: the chosen instants into the LSM archived timeline under {@code timeline/history} (one layer-0 file,
   * then their active files deleted and the layers merged, as Hudi 1.x's archiver does); nothing if a concurrent
   * archival took them all.
   */
  private ArchiveResult archiveToLsm(List<Instant> chosen) {
    TableConfig tc = TableConfigStore.read(storage, basePath);
    Optional<LsmArchival.Result> r = LsmArchival.of(storage, basePath, tc, settings.lsm()).archive(chosen);
    if (r.isEmpty()) {
      return ArchiveResult.none();
    }
    Set<String> times = new HashSet<>();
    r.get().archived().forEach(i -> times.add(i.instantTime()));
    List<Instant> archived = chosen.stream().filter(i -> times.contains(i.time())).sorted().toList();
    return new ArchiveResult(archived, r.get().deletedFiles(), Optional.of(r.get().file()));
  }

  /**
   * The earliest commit, delta commit or replacecommit (any state) or pending instant (any action) of the data table
   * at {@code dataBasePath}: the metadata table keeps its instants from there on.
   */
  private Optional<String> earliestDataInstant(String dataBasePath) {
    Timeline data = new TimelineStore(storage, dataBasePath).load();
    Optional<String> commit = data.filter(i -> i.action() == Action.COMMIT || i.action() == Action.DELTACOMMIT
        || i.action() == Action.REPLACECOMMIT).firstInstant().map(Instant::time);
    Optional<String> pending = data.filter(i -> !i.isCompleted()).firstInstant().map(Instant::time);
    if (commit.isPresent() && pending.isPresent()) {
      return Optional.of(commit.get().compareTo(pending.get()) < 0 ? commit.get() : pending.get());
    }
    return commit.or(() -> pending);
  }

  /** Every state file of the chosen instants, in the order chosen; a compaction's plan goes with its commit. */
  private List<StateFile> stateFiles(List<Instant> chosen) {
    String meta = TableLayout.metaFolder(basePath);
    List<StateFile> all = new ArrayList<>();
    try {
      for (FileInfo f : storage.list(meta)) {
        if (!f.directory()) {
          Instant.parse(f.name()).ifPresent(i -> all.add(new StateFile(i, f)));
        }
      }
    } catch (IOException e) {
      throw Errors.storage("list the timeline folder", meta, e);
    }
    all.sort((a, b) -> a.instant().compareTo(b.instant()));
    List<StateFile> out = new ArrayList<>();
    Set<Instant> taken = new HashSet<>();
    for (Instant c : chosen) {
      for (StateFile f : all) {
        boolean same = f.instant().time().equals(c.time())
            && f.instant().action().completedAs() == c.action().completedAs();
        if (same && ArchiveEntries.archivable(f.instant().action()) && taken.add(f.instant())) {
          out.add(f);
        }
      }
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

  private ArchivalPlanner planner() {
    TableConfig tc = TableConfigStore.read(storage, basePath);
    return new ArchivalPlanner(settings, cleanSettings, tc.type(), tc.timelineTimezone().zoneId());
  }

  private ZoneId zone() {
    return TableConfigStore.read(storage, basePath).timelineTimezone().zoneId();
  }

  /** A timeline file and its listing entry. */
  private record StateFile(Instant instant, FileInfo info) {
  }
}
