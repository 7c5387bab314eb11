package dev.sluice.internal.upgrade;

import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.compact.MetadataCompactionPlans;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.mdt.write.MetadataTableWriter;
import dev.sluice.internal.mdt.write.RecordIndexSetup;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.lsm.LsmSettings;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The metadata table's part of an upgrade, as Hudi 1.1.1's {@code UpgradeDowngrade.run} upgrades it alongside the data
 * table (a second {@code UpgradeDowngrade} on {@code .hoodie/metadata}): while the data table is still version 6,
 * every metadata file slice with log files compacted (Hudi's unbounded compaction of a Merge-on-Read table before the
 * 7-to-8 step, here Sluice's own version-6 metadata compaction at {@code <latest>001}); its timeline and archive
 * converted as the data table's ({@link TimelineConversion}: layout 2 under {@code .hoodie/metadata/.hoodie/timeline},
 * Avro commit metadata, the LSM history); and, after the data table's switch, its own {@code hoodie.properties}
 * rewritten by the same steps (version, layout 2, initial version 6, {@code CUSTOM} merging with
 * {@code HoodieMetadataPayload} and the payload-based strategy, the key generator's type). Its base HFiles, log files
 * and first instant stay as they are: the data table's next reads and writes go on with it.
 *
 * <p>Why the data table's switch comes first: Sluice reads and writes the metadata table in the data table's timeline
 * layout, so once the data table names the new version the staged layout-2 metadata timeline is the one read; until
 * then the staged folder is unread and a new run stages it afresh. Between the two switches only Hudi's readers would
 * still see the version-6 metadata properties; running the upgrade again rewrites them ({@link #finish}).
 * A metadata table the data table cannot trust (behind the data table, not listed) is removed instead, as Hudi's
 * {@code checkAndHandleMetadataTable} removes one that is behind; the next write bootstraps a new one.
 */
final class MetadataTableUpgrade {
  /** Kill point after the metadata table's compaction before the move. */
  static final String KP_COMPACTED = "upgrade.metadata.compacted";
  /** Kill point after the metadata table's timeline and archive are staged. */
  static final String KP_STAGED = "upgrade.metadata.staged";
  /** Kill point after the metadata table's {@code hoodie.properties} names the new version. */
  static final String KP_SWITCHED = "upgrade.metadata.switched";

  private final Storage storage;
  private final String basePath;
  private final String metadataPath;

  MetadataTableUpgrade(Storage storage, String basePath) {
    this.storage = storage;
    this.basePath = basePath;
    this.metadataPath = TableLayout.metadataTableFolder(basePath);
  }

  /** True if the metadata table exists and the data table's reads use it (listed, consistent with the timeline). */
  boolean keepable(TableConfig data) {
    if (!exists()) {
      return false;
    }
    return MetadataTables.check(storage, basePath, new TimelineStore(storage, basePath).load(), data, true)
        .available();
  }

  /** Compacts every metadata slice with log files (nothing when none has any), the table still version 6. */
  void compact(CommitSettings commit) {
    MetadataTableWriter.of(storage, basePath).compactIfDue(1, new MetadataCompactionPlans(),
        RecordIndexSetup.keep(commit));
    KillPoints.reach(KP_COMPACTED);
  }

  /** Writes the metadata table's layout-2 timeline and LSM history beside its old ones. */
  TimelineConversion.Staged stage(int toVersion, int archivalBatch, LsmSettings lsm) {
    TableConfig target = TableUpgrade.target(config(), toVersion);
    TimelineConversion conversion = new TimelineConversion(storage, metadataPath, target);
    TimelineConversion.Staged staged = conversion.stage(conversion.oldTimeline(), archivalBatch, lsm);
    KillPoints.reach(KP_STAGED);
    return staged;
  }

  /**
   * Brings the metadata table's {@code hoodie.properties} to the data table's version {@code dataVersion} (6 to 8/9,
   * 8 to 9, 9 to 8) and deletes its layout-1 timeline files once it is layout 2; nothing without a metadata table or
   * when it is there already. Returns the old timeline files deleted.
   */
  int finish(int dataVersion) {
    if (!exists()) {
      return 0;
    }
    TableConfig c = config();
    int from = c.tableVersion();
    Optional<UnaryOperator<TableConfig>> step = Optional.empty();
    if (from == 6 && dataVersion >= 8) {
      step = Optional.of(v6 -> TableUpgrade.target(v6, dataVersion));
    } else if (from == 8 && dataVersion == 9) {
      step = Optional.of(UpgradeProperties::eightToNine);
    } else if (from == 9 && dataVersion == 8) {
      step = Optional.of(UpgradeProperties::nineToEight);
    }
    if (step.isPresent()) {
      TableConfigStore.update(storage, metadataPath, step.get());
      KillPoints.reach(KP_SWITCHED);
    }
    if (config().tableVersion() < 8) {
      return 0;
    }
    return TableUpgrade.deleteOldTimeline(storage, metadataPath, config());
  }

  /** True if the table has a metadata table ({@code .hoodie/metadata/.hoodie/hoodie.properties}). */
  boolean exists() {
    try {
      return storage.info(TableLayout.propertiesFile(metadataPath)).isPresent();
    } catch (IOException e) {
      throw Errors.storage("look for the metadata table at", metadataPath, e);
    }
  }

  private TableConfig config() {
    return TableConfigStore.read(storage, metadataPath);
  }
}
