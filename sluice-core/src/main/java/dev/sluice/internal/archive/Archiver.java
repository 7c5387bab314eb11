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
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
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
 */
public final class Archiver {
  private final Storage storage;
  private final String basePath;
  private final ArchiveSettings settings;
  private final CleanSettings cleanSettings;
  private final TimelineStore store;
  private final InstantLifecycle lifecycle;
  private final boolean metadataEnabled;

  private Archiver(Storage storage, String basePath, ArchiveSettings settings, CleanSettings cleanSettings,
      InstantLifecycle lifecycle, boolean metadataEnabled) {
    this.storage = storage;
    this.basePath = basePath;
    settings.checkAgainst(cleanSettings);
    this.settings = settings;
    this.cleanSettings = cleanSettings;
    this.store = new TimelineStore(storage, basePath);
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

  /** The instants an archival now would move, in their latest states; writes nothing. */
  public List<Instant> preview() {
    return planner().select(store.load(), store);
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
    if (metadataEnabled) {
      // the metadata table's gate: its readers drop log blocks of instants gone from the active timeline, so only
      // instants already in a compacted metadata base file may go (none before its first compaction)
      Optional<String> before = MetadataTableWriter.of(storage, basePath).archiveBefore();
      if (before.isPresent()) {
        chosen = chosen.stream().filter(i -> i.time().compareTo(before.get()) < 0).toList();
        if (chosen.isEmpty()) {
          return ArchiveResult.none();
        }
      }
    } else {
      MetadataTable.removeIfPresent(storage, basePath);
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
