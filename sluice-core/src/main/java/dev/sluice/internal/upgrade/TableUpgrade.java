package dev.sluice.internal.upgrade;

import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.table.MetadataTable;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Moves a table to another Hudi table version, the timeline and {@code hoodie.properties} part of Hudi 1.1.1's
 * {@code UpgradeDowngrade.run} (the caller has already rolled back failed writes and compacted a Merge-on-Read table
 * while it was still version 6, where Sluice runs every service).
 *
 * <p>6 to 8 or 9, under the table's lock: refuse if a write is still pending; keep the metadata table when the data
 * table's reads trust it ({@link MetadataTableUpgrade}: its slices compacted, its timeline and archive staged in
 * layout 2), else remove it as Hudi removes one that is behind; write the layout-2 timeline and LSM history beside the
 * old timeline ({@link TimelineConversion}); check the old timeline did not change meanwhile; then the switch, one
 * rewrite of {@code hoodie.properties} naming the new version (Hudi's backup protocol, so a crash in it leaves the old
 * or the new file), followed by the metadata table's own properties. Only then are the old timeline files deleted. A
 * crash before the switch leaves the version-6 table as it was (plus unread {@code timeline} folders); after it, the
 * new version's table with some old files nobody reads (and perhaps metadata properties still naming 6, which only
 * Hudi reads). Either way running the upgrade again finishes it. 8 to 9 and 9 to 8 change only the two tables'
 * {@code hoodie.properties}.
 */
public final class TableUpgrade {
  /** Kill point after the metadata table is removed. */
  static final String KP_METADATA_REMOVED = "upgrade.metadata.removed";
  /** Kill point just before {@code hoodie.properties} names the new version. */
  static final String KP_BEFORE_SWITCH = "upgrade.switch.before";
  /** Kill point just after {@code hoodie.properties} names the new version. */
  static final String KP_AFTER_SWITCH = "upgrade.switch.after";
  /** Kill point after each old timeline file deleted. */
  static final String KP_OLD_DELETED = "upgrade.old.deleted";

  private final Storage storage;
  private final String basePath;
  private final UpgradeSettings settings;

  private TableUpgrade(Storage storage, String basePath, UpgradeSettings settings) {
    this.storage = storage;
    this.basePath = basePath;
    this.settings = settings;
  }

  /** The upgrade of the table at {@code basePath}. Does no I/O. */
  public static TableUpgrade of(Storage storage, String basePath, UpgradeSettings settings) {
    return new TableUpgrade(storage, basePath, settings);
  }

  /**
   * What a change of versions did.
   *
   * @param fromVersion the version before
   * @param toVersion the version after
   * @param timelineFiles instant files written into the new timeline folder
   * @param archivedInstants instants of the old archive written into the LSM history
   * @param metadataTableRemoved whether a metadata table was removed (one the data table's reads did not trust)
   * @param metadataTableKept whether a metadata table was upgraded with the data table and kept
   * @param oldFilesDeleted old timeline files deleted after the switch (left by this run or a crashed one)
   */
  public record Result(int fromVersion, int toVersion, int timelineFiles, int archivedInstants,
      boolean metadataTableRemoved, boolean metadataTableKept, int oldFilesDeleted) {
  }

  /**
   * Upgrades to {@code toVersion} (8 or 9), or finishes an interrupted upgrade; a table already at it only has any
   * leftover old timeline files deleted. BAD_REQUEST for another target or a table above it (see {@link #downgrade}).
   */
  public Result upgrade(int toVersion) {
    if (toVersion != 8 && toVersion != 9) {
      throw Errors.badRequest("Upgrading " + basePath + " to table version " + toVersion,
          "Sluice upgrades to table versions 8 (Hudi 1.0) and 9 (Hudi 1.1/1.2)", "Give --to 8 or --to 9.");
    }
    TableConfig before = TableConfigStore.read(storage, basePath);
    int from = before.tableVersion();
    if (from > toVersion) {
      throw Errors.badRequest("Upgrading " + basePath + " to table version " + toVersion,
          "the table is at version " + from, "Use downgrade to go to a lower version.");
    }
    refuseKeyFormChange("Upgrading", before, toVersion);
    TimelineLayout.of(before, basePath);
    Result switched = InstantLifecycle.of(storage, basePath, settings.commit()).locked(
        "upgrade to table version " + toVersion, () -> switchVersion(toVersion));
    int deleted = deleteOldTimeline() + switched.oldFilesDeleted();
    return new Result(from, toVersion, switched.timelineFiles(), switched.archivedInstants(),
        switched.metadataTableRemoved(), switched.metadataTableKept(), deleted);
  }

  private Result switchVersion(int toVersion) {
    TableConfig c = TableConfigStore.read(storage, basePath);
    int from = c.tableVersion();
    MetadataTableUpgrade metadata = new MetadataTableUpgrade(storage, basePath);
    if (from == toVersion) {
      // a crashed run may have left the metadata table's properties or old timeline files behind
      return new Result(from, toVersion, 0, 0, false, false, metadata.finish(toVersion));
    }
    if (from == 8) {
      TableConfigStore.update(storage, basePath, UpgradeProperties::eightToNine);
      KillPoints.reach(KP_AFTER_SWITCH);
      int deleted = metadata.finish(toVersion);
      return new Result(from, toVersion, 0, 0, false, metadata.exists(), deleted);
    }
    TimelineConversion conversion = new TimelineConversion(storage, basePath, target(c, toVersion));
    List<TimelineConversion.Old> old = conversion.oldTimeline();
    // version 6 keeps the requested and inflight files of a completed instant: pending is a time without its completion
    Set<String> completed = old.stream().map(TimelineConversion.Old::instant).filter(Instant::isCompleted)
        .map(i -> i.time() + "." + i.action().completedAs().id()).collect(Collectors.toSet());
    List<String> pendingWrites = old.stream().map(TimelineConversion.Old::instant)
        .filter(i -> WRITES.contains(i.action()) && !completed.contains(i.time() + "." + i.action().completedAs().id()))
        .map(i -> i.time() + "." + i.action().id()).distinct().toList();
    if (!pendingWrites.isEmpty()) {
      throw Errors.conflict("Upgrading " + basePath + " to table version " + toVersion, "a write is in progress ("
          + pendingWrites + "): its writer is alive, or in multi-writer mode its heartbeat has not expired yet; "
          + "upgrade when no writer runs");
    }
    boolean kept = metadata.keepable(c);
    boolean removed = false;
    if (kept) {
      metadata.compact(settings.commit());
      metadata.stage(toVersion, settings.archivalBatch(), settings.lsm());
    } else {
      removed = MetadataTable.removeIfPresent(storage, basePath);
      KillPoints.reach(KP_METADATA_REMOVED);
    }
    // the target computed again: removing the metadata table cleared its keys
    TableConfig target = target(TableConfigStore.read(storage, basePath), toVersion);
    conversion = new TimelineConversion(storage, basePath, target);
    TimelineConversion.Staged staged = conversion.stage(old, settings.archivalBatch(), settings.lsm());
    Set<String> listed = names(old);
    Set<String> now = names(conversion.oldTimeline());
    if (!listed.equals(now)) {
      throw Errors.conflict("Upgrading " + basePath + " to table version " + toVersion,
          "the timeline changed while it was converted (another writer ran); nothing was switched, upgrade again "
              + "when no writer runs");
    }
    KillPoints.reach(KP_BEFORE_SWITCH);
    TableConfigStore.update(storage, basePath, current -> target(current, toVersion));
    KillPoints.reach(KP_AFTER_SWITCH);
    int metadataOld = metadata.finish(toVersion);
    return new Result(from, toVersion, staged.instantFiles(), staged.archivedInstants(), removed, kept, metadataOld);
  }

  /** The version-6 writes whose pending instants would be lost by the move. */
  private static final Set<Action> WRITES = Set.of(Action.COMMIT, Action.DELTACOMMIT, Action.REPLACECOMMIT);

  /** The properties of version {@code toVersion} (8 or 9) for the version-6 properties {@code v6}. */
  static TableConfig target(TableConfig v6, int toVersion) {
    TableConfig eight = UpgradeProperties.sixToEight(v6);
    if (toVersion != 9) {
      return eight;
    }
    TableConfig nine = UpgradeProperties.eightToNine(eight);
    // Hudi's one run from 6 to 9 gives the 8-to-9 step the properties still on disk (version 6): a merge mode absent
    // there is not CUSTOM, so the strategy id goes even where the 6-to-8 step chose CUSTOM (the metadata table's
    // payload); its alias key stays (observed on a metadata table Hudi 1.1.1 upgraded, UpgradeInteropTest)
    boolean customOnDisk = v6.get(TableConfig.RECORD_MERGE_MODE).filter("CUSTOM"::equals).isPresent();
    return customOnDisk ? nine : nine.without(TableConfig.RECORD_MERGE_STRATEGY_ID);
  }

  private static Set<String> names(List<TimelineConversion.Old> files) {
    return files.stream().map(o -> o.info().name()).collect(Collectors.toSet());
  }

  /**
   * Deletes the layout-1 instant files left in {@code .hoodie/} of a table now of layout 2 (nothing reads them there);
   * none on a version-6 table.
   */
  private int deleteOldTimeline() {
    TableConfig c = TableConfigStore.read(storage, basePath);
    if (c.tableVersion() == 6) {
      return 0;
    }
    return deleteOldTimeline(storage, basePath, c);
  }

  /** Deletes the layout-1 instant files in {@code .hoodie/} of the layout-2 table at {@code basePath} (config {@code c}). */
  static int deleteOldTimeline(Storage storage, String basePath, TableConfig c) {
    TimelineConversion conversion = new TimelineConversion(storage, basePath, c);
    int deleted = 0;
    for (TimelineConversion.Old o : conversion.oldTimeline()) {
      try {
        if (storage.delete(o.info().path())) {
          deleted++;
        }
      } catch (IOException e) {
        throw Errors.storage("delete the old timeline file", o.info().path(), e);
      }
      KillPoints.reach(KP_OLD_DELETED);
    }
    return deleted;
  }

  /**
   * Refuses a version change across 9 on a table whose one-field complex keys change form there ({@code k} below
   * version 9, {@code id:k} at 9, see {@link TableConfig#namesSingleKeyField}): the rows written before would no longer
   * match the keys of later writes, and every later upsert of an old key would add a second row. Hudi 1.1 refuses
   * these upgrades and downgrades as well, unless its user declares the table free of HUDI-7001's duplicates.
   */
  private void refuseKeyFormChange(String doing, TableConfig c, int toVersion) {
    if (c.complexKeyOfOneField() && (c.tableVersion() >= 9) != (toVersion >= 9)) {
      String field = c.recordKeyFields().get(0);
      throw Errors.unsupported(doing + " " + basePath + " from table version " + c.tableVersion() + " to " + toVersion
          + " (its complex key generator has one record key field, " + field + ", whose keys are stored as 'value' "
          + "below version 9 and as '" + field + ":value' at version 9: the rows written so far would not match the "
          + "keys of later writes)", "Copy the rows into a new table created at the version you want "
          + "('sluice create --table-version', then write the rows of 'sluice query' into it).");
    }
  }

  /**
   * Downgrades a version-9 table to 8 ({@code NineToEightDowngradeHandler}: {@code hoodie.properties} only), under the
   * table's lock. Version 6 is UNSUPPORTED (Hudi 1.x's downgrade does it); a Merge-on-Read table whose latest slices
   * have log files must be compacted first, which the caller checks.
   */
  public Result downgrade(int toVersion) {
    TableConfig c = TableConfigStore.read(storage, basePath);
    int from = c.tableVersion();
    if (toVersion == from) {
      return new Result(from, toVersion, 0, 0, false, false, 0);
    }
    if (toVersion > from) {
      throw Errors.badRequest("Downgrading " + basePath + " to table version " + toVersion,
          "the table is at version " + from, "Use upgrade to go to a higher version.");
    }
    if (from != 9 || toVersion != 8) {
      throw Errors.unsupported("Downgrading " + basePath + " from table version " + from + " to " + toVersion,
          "Sluice downgrades version 9 to 8 only; to go back to version 6 use Hudi 1.x's downgrade "
              + "(hoodie.write.table.version=6 with its UpgradeDowngrade).");
    }
    refuseKeyFormChange("Downgrading", c, toVersion);
    InstantLifecycle.of(storage, basePath, settings.commit()).locked("downgrade to table version 8", () -> {
      TableConfig now = TableConfigStore.read(storage, basePath);
      if (now.tableVersion() == 9) {
        TableConfigStore.update(storage, basePath, UpgradeProperties::nineToEight);
      }
      // Hudi downgrades the metadata table with the data table (NineToEightDowngradeHandler on both)
      new MetadataTableUpgrade(storage, basePath).finish(8);
      return null;
    });
    boolean metadata = MetadataTable.isPresent(storage, basePath, TableConfigStore.read(storage, basePath));
    return new Result(from, toVersion, 0, 0, false, metadata, 0);
  }
}
