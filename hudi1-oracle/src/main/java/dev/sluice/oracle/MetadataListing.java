package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.metadata.HoodieBackedTableMetadata;
import org.apache.hudi.storage.HoodieStorage;
import org.apache.hudi.storage.HoodieStorageUtils;
import org.apache.hudi.storage.StoragePath;
import org.apache.hudi.storage.StoragePathInfo;

/**
 * {@code mdt-files --table P}: partitions and files as Hudi 1.1.1's {@code HoodieBackedTableMetadata} lists them from
 * the metadata table (the listing Hudi 1.x's query engines use by default), in the 0.15 oracle's output format. Hudi
 * 1.1 reads HFiles with its own reader only, so there is no {@code --reader}. Fails rather than falling back to a
 * listing.
 */
final class MetadataListing {

  private static final ObjectMapper JSON = new ObjectMapper();

  private MetadataListing() {
  }

  static void run(Args args, PrintStream out) throws IOException {
    String table = args.required("table");
    HoodieStorage storage = HoodieStorageUtils.getStorage(new StoragePath(table), Hudi1Env.storageConf(args.conf()));
    HoodieMetadataConfig config = HoodieMetadataConfig.newBuilder().enable(true).build();
    try (HoodieBackedTableMetadata metadata = new HoodieBackedTableMetadata(Hudi1Env.localContext(args.conf()),
        storage, config, table, false)) {
      for (String partition : new java.util.TreeSet<>(metadata.getAllPartitionPaths())) {
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
}
