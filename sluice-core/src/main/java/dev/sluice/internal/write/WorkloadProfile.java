package dev.sluice.internal.write;

import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.api.WriteOperation;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.WriteStat;
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

  /**
   * One planned file group write, by its counts.
   *
   * @param id the file group
   * @param existing true for a merge or append into an existing file group, false for a new one
   * @param prevCommit its current base instant (existing groups)
   * @param updates updates and deletes of keys it holds
   * @param inserts inserts into it
   */
  record Planned(FileGroupId id, boolean existing, String prevCommit, long updates, long inserts) {
  }

  static CommitMetadata of(List<FileGroupWrite> plan, WriteOperation op) {
    List<Planned> planned = new ArrayList<>(plan.size());
    for (FileGroupWrite w : plan) {
      if (w instanceof FileGroupWrite.Merge m) {
        planned.add(new Planned(m.id(), true, m.current().instantTime(), m.updates().size(), m.inserts().size()));
      } else if (w instanceof FileGroupWrite.Append a) {
        planned.add(new Planned(a.id(), true, a.slice().baseInstant(), a.updates().size(), 0));
      } else {
        planned.add(new Planned(w.id(), false, "", 0, w.inserts().size()));
      }
    }
    return ofCounts(planned, op);
  }

  static CommitMetadata ofCounts(List<Planned> plan, WriteOperation op) {
    Map<String, List<WriteStat>> byPartition = new TreeMap<>();
    Map<String, Long> newInserts = new LinkedHashMap<>();
    for (Planned w : plan) {
      String p = w.id().partitionPath();
      if (w.existing()) {
        byPartition.computeIfAbsent(p, k -> new ArrayList<>()).add(WriteStat.builder()
            .fileId(w.id().fileId())
            .prevCommit(w.prevCommit())
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
