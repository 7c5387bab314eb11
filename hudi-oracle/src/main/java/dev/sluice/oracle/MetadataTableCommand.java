package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.model.HoodieRecordGlobalLocation;
import org.apache.hudi.metadata.HoodieBackedTableMetadata;
import org.apache.hudi.storage.HoodieStorage;
import org.apache.hudi.storage.HoodieStorageUtils;
import org.apache.hudi.storage.StoragePath;
import org.apache.hudi.storage.StoragePathInfo;

/**
 * The metadata table as Hudi 0.15 reads it ({@code HoodieBackedTableMetadata}, the class Hudi's writers and query
 * engines list through), with HBase's HFile reader (Hudi 0.15's default) or Hudi's native one
 * ({@code _hoodie.hfile.use.native.reader}):
 * <ul>
 *   <li>{@code mdt-files --table P [--reader hbase|native]}: one JSON line per partition, sorted,
 *       {@code {"partition": relative path, "files": {name: size, ...}}};</li>
 *   <li>{@code mdt-index --table P --keys-file K [--reader hbase|native]}: the record index's location of every key
 *       of K (one key per line), one line {@code {key: {"partition", "fileId", "instant"}}} for the keys found.</li>
 * </ul>
 * A failure of the metadata table (not initialized, unreadable) fails the command: no fall back to a listing.
 */
final class MetadataTableCommand {

  private static final ObjectMapper JSON = new ObjectMapper();

  private MetadataTableCommand() {
  }

  static void files(Args args, PrintStream out) throws IOException {
    String table = args.required("table");
    try (HoodieBackedTableMetadata metadata = open(args, table)) {
      List<String> partitions = new ArrayList<>(metadata.getAllPartitionPaths());
      partitions.sort(Comparator.naturalOrder());
      for (String partition : partitions) {
        StoragePath dir = partition.isEmpty() ? new StoragePath(table) : new StoragePath(table, partition);
        Map<String, Long> files = new TreeMap<>();
        for (StoragePathInfo info : metadata.getAllFilesInPartition(dir)) {
          files.put(info.getPath().getName(), info.getLength());
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("partition", partition);
        line.put("files", files);
        out.println(JSON.writeValueAsString(line));
      }
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      // close() declares Exception
      throw new IOException("closing the metadata table reader failed: " + e.getMessage(), e);
    }
  }

  static void index(Args args, PrintStream out) throws IOException {
    String table = args.required("table");
    List<String> keys = Files.readAllLines(Path.of(args.required("keys-file")), StandardCharsets.UTF_8);
    try (HoodieBackedTableMetadata metadata = open(args, table)) {
      Map<String, HoodieRecordGlobalLocation> found = metadata.readRecordIndex(keys);
      Map<String, Object> line = new TreeMap<>();
      for (Map.Entry<String, HoodieRecordGlobalLocation> e : found.entrySet()) {
        Map<String, String> loc = new LinkedHashMap<>();
        loc.put("partition", e.getValue().getPartitionPath());
        loc.put("fileId", e.getValue().getFileId());
        loc.put("instant", e.getValue().getInstantTime());
        line.put(e.getKey(), loc);
      }
      out.println(JSON.writeValueAsString(line));
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("closing the metadata table reader failed: " + e.getMessage(), e);
    }
  }

  private static HoodieBackedTableMetadata open(Args args, String table) {
    String reader = args.optional("reader").orElse("hbase");
    if (!reader.equals("hbase") && !reader.equals("native")) {
      throw new Args.UsageException("unknown --reader " + reader + " (hbase|native)");
    }
    Map<String, String> conf = new HashMap<>(args.conf());
    conf.put("_hoodie.hfile.use.native.reader", Boolean.toString(reader.equals("native")));
    HoodieStorage storage = HoodieStorageUtils.getStorage(new StoragePath(table), HudiEnv.storageConf(conf));
    HoodieMetadataConfig config = HoodieMetadataConfig.newBuilder().enable(true).build();
    return new HoodieBackedTableMetadata(HudiEnv.localContext(conf), storage, config, table, false);
  }
}
