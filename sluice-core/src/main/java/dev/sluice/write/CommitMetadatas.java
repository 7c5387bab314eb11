package dev.sluice.write;

import dev.sluice.timeline.CommitMetadata;
import dev.sluice.timeline.WriteStat;
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
    return new CommitMetadata(byPartition, compacted, extra, op.type());
  }

  static WriteStat stat(FileWriteResult f) {
    return WriteStat.builder()
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
        .runtimeStats(new WriteStat.RuntimeStats(0, f.prevCommit().equals(FileWriteResult.NULL_COMMIT) ? 0 : f.millis(),
            f.prevCommit().equals(FileWriteResult.NULL_COMMIT) ? f.millis() : 0))
        .build();
  }
}
