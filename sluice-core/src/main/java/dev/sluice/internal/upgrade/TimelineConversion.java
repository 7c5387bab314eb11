package dev.sluice.internal.upgrade;

import dev.sluice.internal.archive.ArchiveLog;
import dev.sluice.internal.archive.ArchivedInstant;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.timeline.avro.AvroContainer;
import dev.sluice.internal.timeline.lsm.LsmInstant;
import dev.sluice.internal.timeline.lsm.LsmSettings;
import dev.sluice.internal.timeline.lsm.LsmTimeline;
import dev.sluice.internal.timeline.lsm.LsmTimelineWriter;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.io.IOException;
import java.io.InputStream;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * Writes a version-6 table's timeline in layout 2 beside the old one, as Hudi 1.1.1's {@code SevenToEightUpgradeHandler}
 * converts it: every file of the active timeline (all states) into {@code .hoodie/timeline/}, a completed one named
 * {@code <requested>_<completion>.<action>} with its file's modification time as completion time, a pending
 * {@code replacecommit} as {@code clustering}, commit, delta commit and completed replace commit files (empty requested
 * files too) rewritten from JSON to Avro, the others copied unchanged; then the archive of {@code .hoodie/archived}
 * into the LSM history {@code timeline/history}, in batches of {@code hoodie.commits.archival.batch}, each followed by
 * the layers' merge.
 *
 * <p>Unlike Hudi, which moves the files, the old timeline is only read: until {@code hoodie.properties} names the new
 * version the table is the version-6 table it was, whatever a crash left in {@code .hoodie/timeline}, and a new run
 * starts the folder afresh ({@link #stage}).
 */
final class TimelineConversion {
  /** Kill point after each instant file written into the new timeline folder. */
  static final String KP_INSTANT = "upgrade.timeline.instant";
  /** Kill point after each LSM batch of the converted archive. */
  static final String KP_ARCHIVE_BATCH = "upgrade.archive.batch";

  private final Storage storage;
  private final String basePath;
  private final TimelineLayout target;
  private final TableConfig targetConfig;
  private final ZoneId zone;

  TimelineConversion(Storage storage, String basePath, TableConfig targetConfig) {
    this.storage = storage;
    this.basePath = basePath;
    this.targetConfig = targetConfig;
    this.target = TimelineLayout.of(targetConfig);
    this.zone = targetConfig.timelineTimezone().zoneId();
  }

  /**
   * What was written.
   *
   * @param instantFiles files written into the new timeline folder
   * @param archivedInstants instants of the old archive written into the LSM history
   */
  record Staged(int instantFiles, int archivedInstants) {
  }

  /** The version-6 timeline files of {@code .hoodie/} with their listing entries. */
  List<Old> oldTimeline() {
    String folder = TimelineLayout.V1.folder(basePath);
    List<Old> out = new ArrayList<>();
    try {
      for (FileInfo f : storage.list(folder)) {
        if (!f.directory()) {
          Instant.parse(f.name()).ifPresent(i -> out.add(new Old(i, f)));
        }
      }
    } catch (IOException e) {
      throw Errors.storage("list the timeline", folder, e);
    }
    out.sort((a, b) -> a.instant().compareTo(b.instant()));
    return out;
  }

  /** Writes the new timeline folder afresh from the old timeline and archive. */
  Staged stage(List<Old> old, int archivalBatch, LsmSettings lsm) {
    String folder = target.folder(basePath);
    try {
      // anything there is a crashed run's: nothing reads it while the table is version 6
      storage.deleteRecursively(folder);
      storage.mkdirs(folder);
      storage.mkdirs(LsmTimeline.folder(basePath, targetConfig));
    } catch (IOException e) {
      throw Errors.storage("prepare the new timeline folder", folder, e);
    }
    int files = 0;
    for (Old o : old) {
      Instant i = o.instant();
      Action action = i.action() == Action.REPLACECOMMIT && !i.isCompleted() ? Action.CLUSTERING : i.action();
      Instant renamed = new Instant(i.time(), action, i.state());
      Optional<String> completion = i.isCompleted() ? Optional.of(modificationTime(o.info())) : Optional.empty();
      byte[] content = read(o.info().path());
      if (i.action() == Action.COMMIT || i.action() == Action.DELTACOMMIT
          || i.action() == Action.REPLACECOMMIT && i.isCompleted()) {
        CommitMetadata md = TimelineLayout.V1.commitMetadata(content, o.info().path());
        content = target.encode(md);
      }
      String to = StoragePaths.join(folder, target.fileName(renamed, completion));
      try {
        storage.createExclusive(to, content);
      } catch (IOException e) {
        throw Errors.storage("write", to, e);
      }
      files++;
      KillPoints.reach(KP_INSTANT);
    }
    int archived = convertArchive(archivalBatch, lsm);
    return new Staged(files, archived);
  }

  /** The old archive's completed instants as LSM rows, written in batches (Hudi's {@code upgradeToLSMTimeline}). */
  private int convertArchive(int batch, LsmSettings lsm) {
    String archive = TableLayout.archivedFolder(basePath, targetConfig.archiveLogFolder());
    try {
      if (storage.info(archive).isEmpty()) {
        return 0;
      }
    } catch (IOException e) {
      throw Errors.storage("look for the archive", archive, e);
    }
    List<ArchivedInstant> states = ArchiveLog.of(storage, basePath).read();
    Map<String, List<ArchivedInstant>> byInstant = new LinkedHashMap<>();
    for (ArchivedInstant a : states) {
      byInstant.computeIfAbsent(a.instant().time() + "." + a.instant().action().completedAs().id(),
          k -> new ArrayList<>()).add(a);
    }
    List<LsmInstant> rows = new ArrayList<>();
    for (List<ArchivedInstant> group : byInstant.values()) {
      row(group).ifPresent(rows::add);
    }
    rows.sort((a, b) -> InstantTimes.compare(a.instantTime(), b.instantTime()));
    LsmTimelineWriter writer = LsmTimelineWriter.of(storage, LsmTimeline.of(storage, basePath, targetConfig), lsm);
    for (int from = 0; from < rows.size(); from += batch) {
      writer.write(rows.subList(from, Math.min(rows.size(), from + batch)));
      writer.compactAndClean();
      KillPoints.reach(KP_ARCHIVE_BATCH);
    }
    return rows.size();
  }

  /**
   * The LSM row of one archived instant ({@code LegacyArchivedMetaEntryReader}): its completed state's transition time
   * as completion time, its content (commit metadata as Hudi 1.x's Avro; other actions' records as Avro containers),
   * and a compaction's plan; empty for an instant archived without its completed state.
   */
  private Optional<LsmInstant> row(List<ArchivedInstant> group) {
    Optional<ArchivedInstant> done = group.stream().filter(a -> a.instant().isCompleted()).findFirst();
    if (done.isEmpty()) {
      return Optional.empty();
    }
    ArchivedInstant d = done.get();
    Instant i = d.instant();
    Optional<byte[]> metadata = d.commitMetadata().map(target::encode);
    if (metadata.isEmpty()) {
      metadata = nested(d.entry(), switch (i.action()) {
        case CLEAN -> "hoodieCleanMetadata";
        case ROLLBACK -> "hoodieRollbackMetadata";
        case SAVEPOINT -> "hoodieSavePointMetadata";
        default -> "";
      });
    }
    Optional<byte[]> plan = Optional.empty();
    for (ArchivedInstant a : group) {
      if (a.instant().action() == Action.COMPACTION && a.instant().isRequested()) {
        plan = nested(a.entry(), "hoodieCompactionPlan");
      } else if (a.instant().action() == Action.CLEAN && a.instant().isRequested()) {
        plan = nested(a.entry(), "hoodieCleanerPlan");
      }
    }
    String completion = d.stateTransitionTime().filter(t -> !t.isBlank()).orElse(i.time());
    return Optional.of(new LsmInstant(i.time(), completion, i.action().completedAs().id(), metadata, plan));
  }

  private static Optional<byte[]> nested(GenericRecord entry, String field) {
    if (field.isEmpty() || entry.getSchema().getField(field) == null) {
      return Optional.empty();
    }
    Object v = entry.get(field);
    return v instanceof GenericRecord r ? Optional.of(AvroContainer.write(r)) : Optional.empty();
  }

  /** A file's modification time as an instant time of the table's zone: Hudi's completion time of a layout-1 file. */
  String modificationTime(FileInfo info) {
    return InstantTimes.format(java.time.Instant.ofEpochMilli(info.modificationTime()), zone);
  }

  private byte[] read(String path) {
    try (InputStream in = storage.openRead(path)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw Errors.storage("read", path, e);
    }
  }

  /** A file of the version-6 timeline. */
  record Old(Instant instant, FileInfo info) {
  }
}
