package dev.sluice.internal.write;

import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.api.FileWriteResult;
import dev.sluice.api.WriteOperation;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.WriteStat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;

/** Builds Hudi commit metadata from what the write handles did. */
final class CommitMetadatas {
  private CommitMetadatas() {
  }

  static CommitMetadata of(List<FileWriteResult> files, WriteOperation op, Schema userSchema, boolean compacted) {
    Map<String, List<WriteStat>> byPartition = new TreeMap<>();
    for (FileWriteResult f : files) {
      byPartition.computeIfAbsent(f.partitionPath(), p -> new ArrayList<>()).add(stat(f));
    }
    Map<String, String> extra = new LinkedHashMap<>();
    extra.put("schema", userSchema.toString());
    return new CommitMetadata(byPartition, compacted, extra, WriteOperationType.of(op));
  }

  static WriteStat stat(FileWriteResult f) {
    boolean created = f.prevCommit().equals(FileWriteResult.NULL_COMMIT);
    WriteStat.Builder b = WriteStat.builder()
        .fileId(f.fileId())
        .path(f.relativePath())
        .prevCommit(f.prevCommit())
        .numWrites(f.numWrites())
        .numDeletes(f.numDeletes())
        .numUpdateWrites(f.numUpdates())
        .numInserts(f.numInserts())
        .totalWriteBytes(f.fileSize())
        .partitionPath(f.partitionPath())
        .fileSizeInBytes(f.fileSize())
        .prevBaseFile(f.prevBaseFile())
        .runtimeStats(new WriteStat.RuntimeStats(0, created ? 0 : f.millis(), created ? f.millis() : 0));
    if (f.logAppend().isPresent()) {
      // HoodieDeltaWriteStat: totalWriteBytes is what was appended, fileSizeInBytes the whole log file; the
      // totalLog* counters stay 0 as Hudi's append handle leaves them (only compaction fills them)
      FileWriteResult.LogAppend a = f.logAppend().get();
      b.fileSizeInBytes(a.logFileSize())
          .logVersion(a.logVersion())
          .logOffset(a.logOffset())
          .baseFile(a.baseFile())
          .logFiles(a.logFiles());
    }
    return b.build();
  }
}
