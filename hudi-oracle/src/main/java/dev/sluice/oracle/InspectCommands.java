package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hudi.common.bloom.BloomFilter;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.engine.HoodieLocalEngineContext;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.FileSlice;
import org.apache.hudi.common.model.HoodieFileFormat;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;
import org.apache.hudi.common.util.FileFormatUtils;
import org.apache.hudi.io.storage.HoodieIOFactory;
import org.apache.hudi.storage.HoodieStorage;
import org.apache.hudi.storage.HoodieStorageUtils;
import org.apache.hudi.storage.StoragePath;

/**
 * The read-only inspection subcommands: {@code timeline}, {@code fsview}, {@code bloom}, {@code schema}.
 */
final class InspectCommands {

  private static final ObjectMapper JSON = new ObjectMapper();

  private InspectCommands() {
  }

  /** One line per instant on the active timeline, in timeline order. */
  static void timeline(Args args, PrintStream out) throws IOException {
    HoodieTableMetaClient metaClient = HudiEnv.metaClient(args.required("table"));
    for (HoodieInstant instant : metaClient.getActiveTimeline().getInstants()) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("time", instant.getTimestamp());
      line.put("action", instant.getAction());
      line.put("state", instant.getState().name());
      out.println(json(line));
    }
  }

  /**
   * One line per latest file slice (view over completed commits and pending compactions, as a reader builds it),
   * sorted by partition and file id; log files oldest first.
   */
  static void fsview(Args args, PrintStream out) throws IOException {
    HoodieTableMetaClient metaClient = HudiEnv.metaClient(args.required("table"));
    boolean useMetadata = args.flag("use-metadata");
    HoodieTimeline timeline = metaClient.getCommitsAndCompactionTimeline().filterCompletedAndCompactionInstants();
    HoodieLocalEngineContext context = HudiEnv.localContext();
    HoodieMetadataConfig metadataConfig = HoodieMetadataConfig.newBuilder().enable(useMetadata).build();
    List<FileSlice> slices = new ArrayList<>();
    HoodieTableFileSystemView view = ReadCommand.fileSystemView(context, metaClient, metadataConfig, timeline, useMetadata);
    try {
      List<String> partitions = FSUtils.getAllPartitionPaths(context, metaClient.getStorage(), metadataConfig,
          metaClient.getBasePathV2().toString());
      for (String partition : partitions) {
        slices.addAll(view.getLatestFileSlices(partition).collect(Collectors.toList()));
      }
    } finally {
      view.close();
    }
    slices.sort(Comparator.comparing(FileSlice::getPartitionPath).thenComparing(FileSlice::getFileId));
    for (FileSlice slice : slices) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("partition", slice.getPartitionPath());
      line.put("fileId", slice.getFileId());
      line.put("baseInstant", slice.getBaseInstantTime());
      line.put("baseFile", slice.getBaseFile().isPresent() ? slice.getBaseFile().get().getFileName() : null);
      List<HoodieLogFile> logs = slice.getLogFiles().collect(Collectors.toList());
      logs.sort(HoodieLogFile.getLogFileComparator());
      line.put("logFiles", logs.stream().map(HoodieLogFile::getFileName).collect(Collectors.toList()));
      out.println(json(line));
    }
  }

  /** Bloom filter type, min/max record keys and membership of the given keys, read from a base file footer. */
  static void bloom(Args args, PrintStream out) throws IOException {
    StoragePath path = new StoragePath(args.required("file"));
    HoodieStorage storage = HoodieStorageUtils.getStorage(path, HudiEnv.storageConf());
    FileFormatUtils utils = HoodieIOFactory.getIOFactory(storage).getFileFormatUtils(HoodieFileFormat.PARQUET);
    BloomFilter filter = utils.readBloomFilterFromMetadata(storage, path);
    String[] minMax = utils.readMinMaxRecordKeys(storage, path);
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("type", filter == null ? null : filter.getBloomFilterTypeCode().name());
    line.put("min", minMax == null ? null : minMax[0]);
    line.put("max", minMax == null ? null : minMax[1]);
    Map<String, Boolean> contains = new LinkedHashMap<>();
    // Complex record keys hold commas, so a file with one key per line is the general form.
    List<String> keys = new ArrayList<>(args.list("keys"));
    Optional<String> keysFile = args.optional("keys-file");
    if (keysFile.isPresent()) {
      keys.addAll(Files.readAllLines(Path.of(keysFile.get()), StandardCharsets.UTF_8));
    }
    for (String key : keys) {
      contains.put(key, filter != null && filter.mightContain(key));
    }
    line.put("contains", contains);
    out.println(json(line));
  }

  /** The table schema as TableSchemaResolver resolves it (with meta fields). */
  static void schema(Args args, PrintStream out) throws IOException {
    HoodieTableMetaClient metaClient = HudiEnv.metaClient(args.required("table"));
    out.println(ReadCommand.tableSchema(metaClient, metaClient.getCommitsTimeline().filterCompletedInstants(),
        Optional.empty()).toString());
  }

  private static String json(Object value) throws JsonProcessingException {
    return JSON.writeValueAsString(value);
  }
}
