package dev.sluice.write;

import dev.sluice.timeline.CommitMetadata;
import dev.sluice.timeline.WriteStat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The plan of a write as Hudi records it in the {@code .inflight} file: per partition one stat with an empty
 * file id counting the inserts into new file groups, and one per existing file group with its previous commit
 * and its update and insert counts.
 */
final class WorkloadProfile {
  private WorkloadProfile() {
  }

  static CommitMetadata of(List<FileGroupWrite> plan, WriteOperation op) {
    Map<String, List<WriteStat>> byPartition = new TreeMap<>();
    Map<String, Long> newInserts = new LinkedHashMap<>();
    for (FileGroupWrite w : plan) {
      String p = w.id().partitionPath();
      if (w instanceof FileGroupWrite.Merge m) {
        byPartition.computeIfAbsent(p, k -> new ArrayList<>()).add(WriteStat.builder()
            .fileId(m.id().fileId())
            .prevCommit(m.current().instantTime())
            .numUpdateWrites(m.updates().size())
            .numInserts(m.inserts().size())
            .partitionPath(p)
            .build());
      } else if (w instanceof FileGroupWrite.Append a) {
        byPartition.computeIfAbsent(p, k -> new ArrayList<>()).add(WriteStat.builder()
            .fileId(a.id().fileId())
            .prevCommit(a.slice().baseInstant())
            .numUpdateWrites(a.updates().size())
            .partitionPath(p)
            .build());
      } else {
        newInserts.merge(p, (long) w.inserts().size(), Long::sum);
      }
    }
    newInserts.forEach((p, n) -> byPartition.computeIfAbsent(p, k -> new ArrayList<>()).add(0, WriteStat.builder()
        .fileId("")
        .numInserts(n)
        .partitionPath(p)
        .build()));
    return new CommitMetadata(byPartition, false, Map.of(), op.type());
  }
}
