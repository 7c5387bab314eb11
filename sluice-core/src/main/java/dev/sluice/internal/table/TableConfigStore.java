package dev.sluice.internal.table;

import dev.sluice.internal.error.Errors;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32;

/**
 * Reads and writes {@code .hoodie/hoodie.properties} in {@code java.util.Properties} text form, with Hudi's
 * checksum and its backup protocol for updates ({@code HoodieTableConfig.modify}): a reader that finds no valid
 * {@code hoodie.properties} falls back to {@code hoodie.properties.backup}.
 */
public final class TableConfigStore {
  /** File name of the table config. */
  public static final String FILE = "hoodie.properties";
  /** File name of the backup kept while the config is being rewritten. */
  public static final String BACKUP_FILE = "hoodie.properties.backup";

  private TableConfigStore() {
  }

  /** CRC32 of UTF-8 {@code database + "." + name}, as an unsigned value ({@code HoodieTableConfig.generateChecksum}). */
  public static long checksum(String database, String name) {
    CRC32 crc = new CRC32();
    byte[] b = (database + "." + name).getBytes(StandardCharsets.UTF_8);
    crc.update(b, 0, b.length);
    return crc.getValue();
  }

  /** True if the properties carry a checksum that matches their name and database. */
  static boolean hasValidChecksum(Map<String, String> props) {
    String c = props.get(TableConfig.CHECKSUM);
    String name = props.get(TableConfig.NAME);
    if (c == null || name == null) {
      return false;
    }
    try {
      return Long.parseLong(c.trim()) == checksum(props.getOrDefault(TableConfig.DATABASE_NAME, ""), name);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** As {@link #read}, but empty if there is neither {@code hoodie.properties} nor its backup (no table yet). */
  public static Optional<TableConfig> readIfPresent(Storage storage, String basePath) {
    Optional<Map<String, String>> main = load(storage, TableLayout.propertiesFile(basePath));
    if (main.isEmpty() && load(storage, TableLayout.propertiesBackupFile(basePath)).isEmpty()) {
      return Optional.empty();
    }
    // the config read once: a sound one is the answer, anything else goes through read's fallbacks
    return Optional.of(read(storage, basePath, main));
  }

  /**
   * Reads the table config. Uses the backup when {@code hoodie.properties} is missing or its checksum does not
   * validate (a concurrent update is in progress). Fails with a BAD_TABLE error if neither file is usable.
   */
  public static TableConfig read(Storage storage, String basePath) {
    return read(storage, basePath, load(storage, TableLayout.propertiesFile(basePath)));
  }

  private static TableConfig read(Storage storage, String basePath, Optional<Map<String, String>> main) {
    String cfg = TableLayout.propertiesFile(basePath);
    String backup = TableLayout.propertiesBackupFile(basePath);
    if (main.isPresent() && hasValidChecksum(main.get())) {
      return TableConfig.of(main.get());
    }
    Optional<Map<String, String>> bak = load(storage, backup);
    if (bak.isPresent() && hasValidChecksum(bak.get())) {
      return TableConfig.of(bak.get());
    }
    if (main.isPresent() && !main.get().containsKey(TableConfig.CHECKSUM) && main.get().containsKey(TableConfig.NAME)) {
      // tables written before checksums existed; Hudi accepts a config without one
      return TableConfig.of(main.get());
    }
    if (main.isEmpty() && bak.isEmpty()) {
      throw Errors.badTable(cfg, "there is no " + FILE + " (nor " + BACKUP_FILE + ")",
          "Check that the path is the base path of a Hudi table, or create the table first.");
    }
    throw Errors.badTable(cfg, "the table config is damaged: its '" + TableConfig.CHECKSUM
            + "' does not match CRC32(database + \".\" + name), or '" + TableConfig.NAME + "' is missing",
        "'sluice repair TABLE --apply' restores " + FILE + " from " + BACKUP_FILE + " when the backup is valid; otherwise "
            + "restore it from a copy of the table.");
  }

  /**
   * Writes the table config, replacing any existing file (use {@link #update} for a live table). The checksum
   * is computed from the name and database and written last.
   */
  public static void write(Storage storage, String basePath, TableConfig config) {
    String cfg = TableLayout.propertiesFile(basePath);
    try (OutputStream out = storage.create(cfg, true)) {
      out.write(serialize(config, "Properties saved on " + Instant.now()));
    } catch (IOException e) {
      throw Errors.storage("write", cfg, e);
    }
  }

  /** Writes the config of a new table; fails with CONFLICT if one exists. */
  static void writeNew(Storage storage, String basePath, TableConfig config) {
    String cfg = TableLayout.propertiesFile(basePath);
    try {
      storage.createExclusive(cfg, serialize(config, "Properties saved on " + Instant.now()));
    } catch (FileAlreadyExistsException e) {
      throw Errors.conflict("Creating the table config " + cfg, "another writer created it first");
    } catch (IOException e) {
      throw Errors.storage("write", cfg, e);
    }
  }

  /**
   * Rewrites the config with {@code change} applied, following Hudi's protocol so that readers always find a
   * valid config: recover from an interrupted update, write the backup, delete the config, write the new config,
   * verify it, delete the backup. Returns the config as written (with its checksum).
   */
  public static TableConfig update(Storage storage, String basePath, UnaryOperator<TableConfig> change) {
    String cfg = TableLayout.propertiesFile(basePath);
    String backup = TableLayout.propertiesBackupFile(basePath);
    String step = "recover from an earlier interrupted update";
    try {
      recoverIfNeeded(storage, cfg, backup);
      step = "read";
      TableConfig current = read(storage, basePath);
      TableConfig next = change.apply(current).without(TableConfig.CHECKSUM);
      step = "write the backup";
      storage.createExclusive(backup, serialize(current, "Updated at " + Instant.now()));
      step = "delete the old config";
      storage.delete(cfg);
      step = "write the new config";
      byte[] bytes = serialize(next, "Updated at " + Instant.now());
      storage.createExclusive(cfg, bytes);
      step = "verify the new config";
      Optional<Map<String, String>> check = load(storage, cfg);
      String expected = Long.toString(next.expectedChecksum());
      if (check.isEmpty() || !expected.equals(check.get().get(TableConfig.CHECKSUM))) {
        // readers go to the backup until a later update recovers from it
        storage.delete(cfg);
        throw Errors.badTable(cfg, "the rewritten config did not read back with checksum " + expected,
            "Retry; the previous config is kept in " + BACKUP_FILE + ".");
      }
      step = "delete the backup";
      storage.delete(backup);
      return TableConfig.of(check.get());
    } catch (FileAlreadyExistsException e) {
      throw Errors.conflict("Updating the table config " + cfg + " (step: " + step + ")",
          "another writer is updating it at the same time");
    } catch (IOException e) {
      throw Errors.storage("update the table config (step: " + step + ")", cfg, e);
    }
  }

  /** What {@code hoodie.properties} and its backup need (repair). */
  public enum ConfigState {
    /** The config is valid and there is no backup. */
    SOUND,
    /** The config is missing or damaged and the backup is valid: restore the config from it. */
    RESTORE_FROM_BACKUP,
    /** The config is valid and a backup of an update that finished or was abandoned is left: delete it. */
    STALE_BACKUP,
    /** Neither file is a valid config. */
    UNREPAIRABLE
  }

  /** The state of the table's config files, read now. */
  public static ConfigState state(Storage storage, String basePath) {
    Optional<Map<String, String>> main = load(storage, TableLayout.propertiesFile(basePath));
    Optional<Map<String, String>> bak = load(storage, TableLayout.propertiesBackupFile(basePath));
    boolean mainOk = main.isPresent() && usable(main.get());
    if (mainOk) {
      return bak.isPresent() ? ConfigState.STALE_BACKUP : ConfigState.SOUND;
    }
    return bak.isPresent() && hasValidChecksum(bak.get()) ? ConfigState.RESTORE_FROM_BACKUP : ConfigState.UNREPAIRABLE;
  }

  /**
   * Replaces a missing or damaged {@code hoodie.properties} by its backup, then deletes the backup: the step an
   * interrupted update's recovery takes, for a config damaged otherwise. Readers use the backup until the config is back.
   */
  public static void restoreFromBackup(Storage storage, String basePath) {
    String cfg = TableLayout.propertiesFile(basePath);
    String backup = TableLayout.propertiesBackupFile(basePath);
    try {
      byte[] good = readBytes(storage, backup).orElseThrow(() -> Errors.badTable(backup, "the backup is gone",
          "Run the repair again; another process may have restored the config."));
      storage.delete(cfg);
      storage.createExclusive(cfg, good);
      storage.delete(backup);
    } catch (IOException e) {
      throw Errors.storage("restore the table config from its backup", cfg, e);
    }
  }

  /** Deletes a backup the config no longer needs. */
  public static void deleteBackup(Storage storage, String basePath) {
    String backup = TableLayout.propertiesBackupFile(basePath);
    try {
      storage.delete(backup);
    } catch (IOException e) {
      throw Errors.storage("delete", backup, e);
    }
  }

  private static void recoverIfNeeded(Storage storage, String cfg, String backup) throws IOException {
    Optional<Map<String, String>> main = load(storage, cfg);
    if (main.isEmpty()) {
      Optional<byte[]> bak = readBytes(storage, backup);
      if (bak.isPresent()) {
        storage.createExclusive(cfg, bak.get());
      }
    } else if (!usable(main.get())) {
      // a damaged config (an update cut short while writing it, or damage from outside) is replaced by a valid
      // backup before the backup goes: deleting the backup beside it would lose the only valid copy, the one
      // readers were using
      Optional<byte[]> bak = readBytes(storage, backup);
      if (bak.isEmpty() || !hasValidChecksum(PropertiesText.parse(bak.get()))) {
        // nothing valid to recover from: both are left for a repair, and the read that follows fails
        return;
      }
      storage.delete(cfg);
      storage.createExclusive(cfg, bak.get());
    }
    storage.delete(backup);
  }

  /** True for a config readers accept: a valid checksum, or none at all (tables written before checksums). */
  private static boolean usable(Map<String, String> props) {
    return hasValidChecksum(props) || !props.containsKey(TableConfig.CHECKSUM) && props.containsKey(TableConfig.NAME);
  }

  /** The Properties text of {@code config}: comment lines, the keys in order, the checksum last. */
  static byte[] serialize(TableConfig config, String comment) {
    Map<String, String> props = new LinkedHashMap<>(config.properties());
    props.remove(TableConfig.CHECKSUM);
    props.put(TableConfig.CHECKSUM, Long.toString(config.expectedChecksum()));
    return PropertiesText.format(props, comment);
  }

  private static Optional<Map<String, String>> load(Storage storage, String path) {
    Optional<byte[]> bytes = readBytes(storage, path);
    return bytes.map(ParsedConfigs::parse);
  }

  private static Optional<byte[]> readBytes(Storage storage, String path) {
    try {
      if (storage.info(path).isEmpty()) {
        return Optional.empty();
      }
      try (InputStream in = storage.openRead(path)) {
        return Optional.of(in.readAllBytes());
      }
    } catch (java.nio.file.NoSuchFileException | java.io.FileNotFoundException e) {
      // deleted between the check and the open by a concurrent update: treat as absent
      return Optional.empty();
    } catch (IOException e) {
      throw Errors.storage("read", path, e);
    }
  }
}
