package dev.sluice.internal.table;

import dev.sluice.internal.error.Errors;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.util.KillPoints;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code .hoodie_partition_metadata} file that marks a directory as a partition ({@code HoodiePartitionMetadata}):
 * Properties text with the comment {@code partition metadata} and the keys {@code commitTime} (the instant that
 * created the partition) and {@code partitionDepth} (path levels below the base path).
 */
public final class PartitionMetadata {
  /** The text form's file name; also the prefix of every partition metadata file. */
  public static final String FILE = ".hoodie_partition_metadata";
  /** Key of the creating instant. */
  public static final String COMMIT_TIME_KEY = "commitTime";
  /** Key of the partition depth. */
  public static final String PARTITION_DEPTH_KEY = "partitionDepth";
  // variants written when hoodie.partition.metafile.use.base.format=true
  private static final List<String> BASE_FORMAT_VARIANTS = List.of(FILE + ".parquet", FILE + ".orc");

  private PartitionMetadata() {
  }

  /** The number of path levels of a relative partition path ("" is 0). */
  public static int depth(String partitionPath) {
    if (partitionPath.isEmpty()) {
      return 0;
    }
    int n = 1;
    for (int i = 0; i < partitionPath.length(); i++) {
      if (partitionPath.charAt(i) == '/') {
        n++;
      }
    }
    return n;
  }

  /** True for the name of a partition metadata file (text or base-format variant). */
  public static boolean isMetadataFileName(String name) {
    return name.equals(FILE) || BASE_FORMAT_VARIANTS.contains(name);
  }

  /** The content Hudi writes for a partition created by {@code instantTime}. */
  static byte[] content(String partitionPath, String instantTime) {
    Map<String, String> props = new LinkedHashMap<>();
    props.put(COMMIT_TIME_KEY, instantTime);
    props.put(PARTITION_DEPTH_KEY, Integer.toString(depth(partitionPath)));
    return PropertiesText.format(props, "partition metadata");
  }

  /**
   * Writes the partition metadata file if the partition has none. The file appears in one step with its whole
   * content (Hudi 0.15 writes the text form with "create immutable" semantics); if another writer creates it
   * first, theirs is kept. The non-partitioned case is {@code partitionPath = ""} (file in the base path, depth 0).
   */
  public static void ensure(Storage storage, String basePath, String partitionPath, String instantTime) {
    if (exists(storage, basePath, partitionPath)) {
      return;
    }
    String path = StoragePaths.join(StoragePaths.join(basePath, partitionPath), FILE);
    KillPoints.reach("partition-metadata.create");
    try {
      storage.createExclusive(path, content(partitionPath, instantTime));
    } catch (FileAlreadyExistsException e) {
      // a concurrent writer created the partition first; its file is as good as ours
      return;
    } catch (IOException e) {
      throw Errors.storage("write partition metadata", path, e);
    }
  }

  /** True if the partition has a partition metadata file (any form). */
  public static boolean exists(Storage storage, String basePath, String partitionPath) {
    String dir = StoragePaths.join(basePath, partitionPath);
    String path = StoragePaths.join(dir, FILE);
    try {
      if (storage.info(path).isPresent()) {
        return true;
      }
      for (String variant : BASE_FORMAT_VARIANTS) {
        path = StoragePaths.join(dir, variant);
        if (storage.info(path).isPresent()) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw Errors.storage("check partition metadata", path, e);
    }
  }
}
