package dev.sluice.api;

import dev.sluice.internal.upgrade.UpgradeSettings;
import dev.sluice.internal.timeline.lsm.LsmSettings;
import dev.sluice.internal.archive.ArchiveSettings;
import dev.sluice.internal.archive.Archiver;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.clean.CleanSettings;
import dev.sluice.internal.clean.Cleaner;
import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.commit.ConcurrencyMode;
import dev.sluice.internal.compact.Compaction;
import dev.sluice.internal.compact.CompactionSettings;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.index.Index;
import dev.sluice.internal.index.IndexSettings;
import dev.sluice.internal.index.IndexedTable;
import dev.sluice.internal.index.Indexes;
import dev.sluice.internal.mdt.write.RecordIndexSetup;
import dev.sluice.internal.read.ReadSettings;
import dev.sluice.internal.read.SliceKeyReader;
import dev.sluice.internal.service.TableActions;
import dev.sluice.internal.service.TableServices;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.write.WriteSettings;
import dev.sluice.internal.write.WriteSetup;
import dev.sluice.storage.Storage;
import java.util.Locale;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * Where a handle's {@link Config} becomes the engine's typed settings records ({@code *Settings.from}): the engine
 * below {@code dev.sluice.api} never sees a raw {@code Config}. Each method reads the settings its engine object
 * needs at the moment it is made, as before, so a bad value fails the same call it failed before.
 */
final class TableSettings {
  private TableSettings() {
  }

  /**
   * {@code options} with the concurrency mode the table records ({@link ConfigKeys#TABLE_CONCURRENCY_MODE} in
   * {@code hoodie.properties}), so every writer of the table follows it: a writer that set no mode takes the table's,
   * one that set the same keeps it, and one that set another is refused (BAD_CONFIG): a writer that thinks it is
   * alone next to writers that lock, or the other way round, is a mistake to point out, not to paper over.
   */
  static Config withTableConcurrencyMode(Config options, TableConfig table, String location) {
    Optional<String> recorded = table.get(ConfigKeys.TABLE_CONCURRENCY_MODE.name()).map(String::trim)
        .filter(v -> !v.isEmpty());
    if (recorded.isEmpty()) {
      return options;
    }
    ConcurrencyMode mode;
    try {
      mode = ConcurrencyMode.valueOf(recorded.get().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw Errors.badTable(TableLayout.propertiesFile(location), ConfigKeys.TABLE_CONCURRENCY_MODE.name() + " is '"
          + recorded.get() + "', not SINGLE_WRITER or OPTIMISTIC_CONCURRENCY_CONTROL",
          "Correct the property in hoodie.properties (and its backup) or remove it.");
    }
    if (options.isSet(ConfigKeys.WRITE_CONCURRENCY_MODE)) {
      String own = options.get(ConfigKeys.WRITE_CONCURRENCY_MODE).trim().toUpperCase(Locale.ROOT);
      if (!own.equals(mode.name())) {
        throw Errors.badRequest("Opening " + location + " with " + ConfigKeys.WRITE_CONCURRENCY_MODE.name() + "="
            + options.get(ConfigKeys.WRITE_CONCURRENCY_MODE), "the table records " + ConfigKeys.TABLE_CONCURRENCY_MODE
            .name() + "=" + mode.name() + " in hoodie.properties, and every writer of the table follows it",
            "Drop " + ConfigKeys.WRITE_CONCURRENCY_MODE.name() + " from this writer's options (it then follows the "
                + "table) or set it to " + mode.name() + ".");
      }
    }
    return options.with(ConfigKeys.WRITE_CONCURRENCY_MODE.name(), mode.name());
  }

  /**
   * {@code options} with {@code hoodie.metadata.enable} and {@code hoodie.metadata.record.index.enable} decided for
   * {@code table}: the one place that decides whether a handle keeps and reads the metadata table (with
   * {@link #forChanges}, which turns it off for changes where Sluice does not keep it).
   * <ul>
   *   <li>{@code hoodie.metadata.enable} as the caller set it, unset meaning {@link ConfigKeys#METADATA_ENABLE}'s
   *       default, true, as Hudi's writers. Version 6: the first action that finds no metadata table builds one (as
   *       Hudi 0.15's {@code initializeIfNeeded}, when no other instant is pending), every action mirrors itself into
   *       it; {@code false} removes it. Versions 8 and 9: the same, in Hudi 1.x's form of the metadata table (a
   *       {@code record_index} partition is dropped there: Sluice keeps the record index on version 6 only).</li>
   *   <li>{@code hoodie.metadata.record.index.enable} unset: on when the table has a {@code record_index}
   *       partition, so a writer that does not say keeps the index another writer built; never built unasked
   *       (Hudi's default is false).</li>
   * </ul>
   */
  static Config withMetadataDefault(Config options, TableConfig table) {
    Config out = options;
    if (!out.isSet(ConfigKeys.METADATA_ENABLE)) {
      out = out.with(ConfigKeys.METADATA_ENABLE.name(), Boolean.toString(ConfigKeys.METADATA_ENABLE.defaultValue()));
    }
    if (!out.isSet(ConfigKeys.RECORD_INDEX_ENABLE)) {
      // Hudi's writers, whose default is false, drop a record index another writer built; Sluice keeps it
      boolean present = table.metadataPartitions().contains("record_index");
      out = out.with(ConfigKeys.RECORD_INDEX_ENABLE.name(), Boolean.toString(present));
    }
    return out;
  }

  /**
   * The options of a change (write, service, rollback...) to a table of {@code layout}: {@code options} as they are,
   * or with {@code hoodie.metadata.enable=false} where Sluice reads the metadata table but does not keep it (versions
   * 8/9), so a change removes it instead of leaving it stale or writing Hudi 0.15's form into it.
   */
  static Config forChanges(Config options, TimelineLayout layout) {
    return layout.writesMetadataTable() ? options : options.with(ConfigKeys.METADATA_ENABLE.name(), "false");
  }

  /** The post-commit services of a write; checks their settings (clean, archive, compaction, in that order). */
  static TableServices services(Config config) {
    return TableServices.of(CleanSettings.from(config), ArchiveSettings.from(config), CompactionSettings.from(config),
        CommitSettings.from(config), () -> BaseFileWriterOptions.from(config));
  }

  /** Checks the write options (as {@link #writeSetup} does later), so that a bad one fails before any file is written. */
  static void checkWriteOptions(Config config) {
    WriteSettings.from(config);
    CommitSettings.from(config);
  }

  /** A write's setup; checks the write options. */
  static WriteSetup writeSetup(Storage storage, String location, TableConfig tableConfig, Schema userSchema,
      Config config) {
    return WriteSetup.of(storage, location, tableConfig, userSchema, WriteSettings.from(config),
        CommitSettings.from(config));
  }

  /** The commit protocol's options (lock, heartbeats, the metadata table). */
  static CommitSettings commit(Config config) {
    return CommitSettings.from(config);
  }

  /**
   * What a write wants of the record index ({@code hoodie.metadata.record.index.enable}): built from the live keys
   * of the latest file slices when missing (read with the read options' log merge budget), or dropped.
   */
  static RecordIndexSetup recordIndex(Storage storage, String location, Config config) {
    ReadSettings read = ReadSettings.from(config);
    return RecordIndexSetup.of(CommitSettings.from(config), Optional.of(new SliceKeyReader(storage, location,
        read.logMergeMaxMemory(), read.spillDirectory())));
  }

  /** Rollback, savepoint and restore. */
  static TableActions actions(Storage storage, String location, Config config) {
    return new TableActions(storage, location, CommitSettings.from(config));
  }

  /** The cleaner; checks the cleaner keys. */
  static Cleaner cleaner(Storage storage, String location, Config config) {
    return Cleaner.of(storage, location, CleanSettings.from(config), CommitSettings.from(config));
  }

  /** The archiver; checks the archival and cleaner keys. */
  static Archiver archiver(Storage storage, String location, Config config) {
    return Archiver.of(storage, location, ArchiveSettings.from(config), CleanSettings.from(config),
        CommitSettings.from(config));
  }

  /** The engine's compaction; checks the compaction keys, the base file options when a compaction runs. */
  static Compaction compaction(Storage storage, String location, Config config) {
    return Compaction.of(storage, location, CompactionSettings.from(config), CommitSettings.from(config),
        () -> BaseFileWriterOptions.from(config));
  }

  /** The configured index over {@code table} as it is now; checks its keys. */
  static Index index(Table table) {
    Config config = table.options();
    return Indexes.of(table.storage(), new IndexedTable(table.location(), table.config(),
        ReadSettings.from(config).metadataTable()), IndexSettings.from(config));
  }

  /** An upgrade's settings: the lock, the archive conversion's batch and the LSM history's codec and merge size. */
  static UpgradeSettings upgrade(Config config) {
    return new UpgradeSettings(CommitSettings.from(config), config.get(ConfigKeys.COMMITS_ARCHIVAL_BATCH),
        LsmSettings.from(config));
  }

  /** The read options. */
  static ReadSettings read(Config config) {
    return ReadSettings.from(config);
  }
}
