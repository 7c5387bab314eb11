package dev.sluice.internal.compact;

import dev.sluice.internal.timeline.avro.AvroContainer;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;

/**
 * The file groups that pending clusterings read ({@code HoodieRequestedReplaceMetadata.clusteringPlan.inputGroups
 * [].slices[]}), read by field name; compaction must not plan them.
 */
final class PendingClustering {
  private PendingClustering() {
  }

  static Set<FileGroupId> fileGroups(TimelineStore store, Timeline timeline) {
    Set<FileGroupId> out = new HashSet<>();
    for (Instant i : timeline.filter(x -> x.action() == Action.REPLACECOMMIT && !x.isCompleted()).instants()) {
      Instant requested = Instant.requested(i.time(), Action.REPLACECOMMIT);
      byte[] bytes = store.readIfExists(requested).orElse(new byte[0]);
      Optional<GenericRecord> md = AvroContainer.read(bytes, store.pathOf(requested));
      Object plan = md.map(r -> r.hasField("clusteringPlan") ? r.get("clusteringPlan") : null).orElse(null);
      if (!(plan instanceof GenericRecord p) || !p.hasField("inputGroups") || !(p.get("inputGroups") instanceof List<?> groups)) {
        continue;
      }
      for (Object g : groups) {
        if (g instanceof GenericRecord group && group.hasField("slices") && group.get("slices") instanceof List<?> slices) {
          for (Object s : slices) {
            if (s instanceof GenericRecord slice && slice.get("fileId") != null) {
              Object partition = slice.get("partitionPath");
              out.add(new FileGroupId(partition == null ? "" : partition.toString(), slice.get("fileId").toString()));
            }
          }
        }
      }
    }
    return out;
  }
}
