package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.engine.HoodieLocalEngineContext;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.FileSlice;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.view.FileSystemViewManager;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;

/**
 * {@code fsview --table P [--use-metadata]}: the latest file slice of every file group as Hudi 1.1.1's file-system
 * view builds it (for tables of version 8 and 9: logs placed by their delta commit's completion time, files of
 * uncommitted instants left out), in the 0.15 oracle's output format, sorted by partition and file id.
 */
final class FileSlices {

  private static final ObjectMapper JSON = new ObjectMapper();

  private FileSlices() {
  }

  static void run(Args args, PrintStream out) throws IOException {
    HoodieTableMetaClient metaClient = Hudi1Env.metaClient(args.required("table"), args.conf());
    boolean useMetadata = args.flag("use-metadata");
    HoodieTimeline timeline = metaClient.getCommitsAndCompactionTimeline().filterCompletedAndCompactionInstants();
    HoodieLocalEngineContext context = Hudi1Env.localContext(args.conf());
    HoodieMetadataConfig metadataConfig = HoodieMetadataConfig.newBuilder().enable(useMetadata).build();
    List<FileSlice> slices = new ArrayList<>();
    try (HoodieTableFileSystemView view = FileSystemViewManager.createInMemoryFileSystemViewWithTimeline(context,
        metaClient, metadataConfig, timeline)) {
      for (String partition : FSUtils.getAllPartitionPaths(context, metaClient, metadataConfig)) {
        slices.addAll(view.getLatestFileSlices(partition).collect(Collectors.toList()));
      }
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
      out.println(JSON.writeValueAsString(line));
    }
  }
}
