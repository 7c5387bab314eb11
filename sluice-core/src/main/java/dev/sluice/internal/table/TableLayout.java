package dev.sluice.internal.table;

import dev.sluice.internal.error.Errors;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where things live under a table's base path ({@code HoodieTableMetaClient} constants), and table creation.
 */
public final class TableLayout {
  /** {@code .hoodie}: the timeline and table config. */
  public static final String META_FOLDER = ".hoodie";
  /** {@code .temp} under {@code .hoodie}: markers of writes in progress. */
  public static final String TEMP_FOLDER = ".temp";
  /** {@code .schema} under {@code .hoodie}: internal-schema history. */
  public static final String SCHEMA_FOLDER = ".schema";
  /** {@code .aux} under {@code .hoodie}. */
  public static final String AUX_FOLDER = ".aux";
  /** {@code .heartbeat} under {@code .hoodie}. */
  public static final String HEARTBEAT_FOLDER = ".heartbeat";
  /** {@code metadata} under {@code .hoodie}: the metadata table. */
  public static final String METADATA_TABLE_FOLDER = "metadata";
  /** Default archived-timeline folder under {@code .hoodie}. */
  public static final String ARCHIVED_FOLDER = "archived";
  /** Bootstrap index folders under {@code .hoodie/.aux}. */
  public static final String BOOTSTRAP_PARTITIONS_FOLDER = ".bootstrap/.partitions";
  /** Bootstrap index by file id, under {@code .hoodie/.aux}. */
  public static final String BOOTSTRAP_FILEIDS_FOLDER = ".bootstrap/.fileids";

  private TableLayout() {
  }

  /** {@code <base>/.hoodie}. */
  public static String metaFolder(String basePath) {
    return StoragePaths.join(basePath, META_FOLDER);
  }

  /** {@code <base>/.hoodie/.temp}. */
  public static String tempFolder(String basePath) {
    return StoragePaths.join(metaFolder(basePath), TEMP_FOLDER);
  }

  /** {@code <base>/.hoodie/.schema}. */
  public static String schemaFolder(String basePath) {
    return StoragePaths.join(metaFolder(basePath), SCHEMA_FOLDER);
  }

  /** {@code <base>/.hoodie/.aux}. */
  public static String auxFolder(String basePath) {
    return StoragePaths.join(metaFolder(basePath), AUX_FOLDER);
  }

  /** {@code <base>/.hoodie/archived} (the default archive folder name). */
  public static String archivedFolder(String basePath) {
    return archivedFolder(basePath, ARCHIVED_FOLDER);
  }

  /** {@code <base>/.hoodie/<folder>}, for a table whose {@code hoodie.archivelog.folder} is {@code folder}. */
  public static String archivedFolder(String basePath, String folder) {
    return StoragePaths.join(metaFolder(basePath), folder);
  }

  /** {@code <base>/.hoodie/metadata}. */
  public static String metadataTableFolder(String basePath) {
    return StoragePaths.join(metaFolder(basePath), METADATA_TABLE_FOLDER);
  }

  /** {@code <base>/.hoodie/.heartbeat}. */
  public static String heartbeatFolder(String basePath) {
    return StoragePaths.join(metaFolder(basePath), HEARTBEAT_FOLDER);
  }

  /** {@code <base>/.hoodie/hoodie.properties}. */
  public static String propertiesFile(String basePath) {
    return StoragePaths.join(metaFolder(basePath), TableConfigStore.FILE);
  }

  /** {@code <base>/.hoodie/hoodie.properties.backup}. */
  public static String propertiesBackupFile(String basePath) {
    return StoragePaths.join(metaFolder(basePath), TableConfigStore.BACKUP_FILE);
  }

  /** True if a table config (or its backup) exists at {@code basePath}. */
  public static boolean tableExists(Storage storage, String basePath) {
    try {
      return storage.info(propertiesFile(basePath)).isPresent()
          || storage.info(propertiesBackupFile(basePath)).isPresent();
    } catch (IOException e) {
      throw Errors.storage("check for a table at", basePath, e);
    }
  }

  /**
   * Creates a new table: the base folder, {@code .hoodie} with {@code .schema}, the archive folder, {@code .temp},
   * {@code .aux} and its bootstrap index folders (as {@code initTableAndGetMetaClient} does), then
   * {@code hoodie.properties}. Refuses if a table already exists at {@code basePath}.
   */
  public static void initialize(Storage storage, String basePath, TableConfig config) {
    if (tableExists(storage, basePath)) {
      throw Errors.badRequest("Creating a table at " + basePath, "a Hudi table already exists there",
          "Choose another path, or write to the existing table.");
    }
    String step = basePath;
    try {
      // layout 2 (versions 8/9): the active timeline and its LSM archive folder, as Hudi 1.x's table builder makes
      // them; layout 1: the archive folder
      String timeline = StoragePaths.join(metaFolder(basePath), config.get(TableConfig.TIMELINE_PATH).orElse("timeline"));
      String[] archive = config.timelineLayoutVersion() >= 2
          ? new String[] {timeline, StoragePaths.join(timeline, config.get(TableConfig.TIMELINE_HISTORY_PATH)
              .orElse("history"))}
          : new String[] {archivedFolder(basePath, config.archiveLogFolder())};
      List<String> dirs = new ArrayList<>(List.of(basePath, metaFolder(basePath), schemaFolder(basePath)));
      dirs.addAll(List.of(archive));
      for (String dir : dirs.toArray(String[]::new)) {
        step = dir;
        storage.mkdirs(dir);
      }
      for (String dir : new String[] {tempFolder(basePath), auxFolder(basePath),
          StoragePaths.join(auxFolder(basePath), BOOTSTRAP_PARTITIONS_FOLDER),
          StoragePaths.join(auxFolder(basePath), BOOTSTRAP_FILEIDS_FOLDER)}) {
        step = dir;
        storage.mkdirs(dir);
      }
    } catch (IOException e) {
      throw Errors.storage("create the folder", step, e);
    }
    TableConfigStore.writeNew(storage, basePath, config);
  }
}
