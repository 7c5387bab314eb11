package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.data.HoodieListData;
import org.apache.hudi.common.model.HoodieRecordGlobalLocation;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.common.util.collection.Pair;
import org.apache.hudi.metadata.HoodieBackedTableMetadata;
import org.apache.hudi.storage.HoodieStorage;
import org.apache.hudi.storage.HoodieStorageUtils;
import org.apache.hudi.storage.StoragePath;

/**
 * {@code mdt-index --table P --keys-file K [--partition D]}: where Hudi 1.1.1's
 * {@code HoodieBackedTableMetadata.readRecordIndexLocationsWithKeys} puts each key of K (one per line) that the record
 * index holds, in the 0.15 oracle's output format (one JSON object: key to partition, fileId, instant). With
 * {@code --partition} the lookup is the partitioned record index's, in data partition D. Fails if the table has no
 * record index.
 */
final class RecordIndexLookup {

  private static final ObjectMapper JSON = new ObjectMapper();

  private RecordIndexLookup() {
  }

  static void run(Args args, PrintStream out) throws IOException {
    String table = args.required("table");
    List<String> keys = Files.readAllLines(Path.of(args.required("keys-file")), StandardCharsets.UTF_8);
    Option<String> partition = Option.ofNullable(args.optional("partition").orElse(null));
    HoodieStorage storage = HoodieStorageUtils.getStorage(new StoragePath(table), Hudi1Env.storageConf(args.conf()));
    HoodieMetadataConfig config = HoodieMetadataConfig.newBuilder().enable(true).build();
    try (HoodieBackedTableMetadata metadata = new HoodieBackedTableMetadata(Hudi1Env.localContext(args.conf()),
        storage, config, table, false)) {
      List<Pair<String, HoodieRecordGlobalLocation>> found = metadata
          .readRecordIndexLocationsWithKeys(HoodieListData.eager(keys), partition).collectAsList();
      Map<String, Object> line = new TreeMap<>();
      for (Pair<String, HoodieRecordGlobalLocation> e : found) {
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
      // close() declares Exception
      throw new IOException("closing the metadata table reader failed: " + e.getMessage(), e);
    }
  }
}
