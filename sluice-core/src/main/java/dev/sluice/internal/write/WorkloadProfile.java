package dev.sluice.internal.write;

import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.api.WriteOperation;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.WriteStat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
      Optional<String> prevCommit = w instanceof FileGroupWrite.Merge m ? Optional.of(m.current().instantTime())
          : w instanceof FileGroupWrite.Append a ? Optional.of(a.slice().baseInstant()) : Optional.empty();
      if (prevCommit.isPresent()) {
        byPartition.computeIfAbsent(p, k -> new ArrayList<>()).add(WriteStat.builder()
            .fileId(w.id().fileId())
            .prevCommit(prevCommit.get())
            .numUpdateWrites(w.updates())
            .numInserts(w.inserts())
            .partitionPath(p)
            .build());
      } else {
        newInserts.merge(p, w.inserts(), Long::sum);
      }
    }
    newInserts.forEach((p, n) -> byPartition.computeIfAbsent(p, k -> new ArrayList<>()).add(0, WriteStat.builder()
        .fileId("")
        .numInserts(n)
        .partitionPath(p)
        .build()));
    return new CommitMetadata(byPartition, false, Map.of(), WriteOperationType.of(op));
  }
}
