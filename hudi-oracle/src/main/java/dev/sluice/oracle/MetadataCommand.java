package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.hudi.avro.model.HoodieRestorePlan;
import org.apache.hudi.avro.model.HoodieRollbackPlan;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.timeline.TimelineMetadataUtils;

/**
 * {@code metadata --table PATH}: the Avro metadata of every rollback, savepoint and restore instant as Hudi's own
 * model classes decode it (plans of {@code .requested} files too), one JSON line each:
 * {@code {"time", "action", "state", "kind": "plan"|"metadata", "value": <the record's JSON>}}.
 */
final class MetadataCommand {

  private static final ObjectMapper JSON = new ObjectMapper();

  private MetadataCommand() {
  }

  static void run(Args args, PrintStream out) throws IOException {
    HoodieTableMetaClient metaClient = HudiEnv.metaClient(args.required("table"), args.conf());
    HoodieActiveTimeline timeline = metaClient.getActiveTimeline();
    for (HoodieInstant instant : timeline.getInstants()) {
      String action = instant.getAction();
      String ts = instant.getTimestamp();
      HoodieInstant requested = new HoodieInstant(HoodieInstant.State.REQUESTED, action, ts);
      switch (action) {
        case HoodieTimeline.ROLLBACK_ACTION:
          print(out, instant, "plan", TimelineMetadataUtils.deserializeAvroMetadata(
              timeline.getInstantDetails(requested).get(), HoodieRollbackPlan.class));
          if (instant.isCompleted()) {
            print(out, instant, "metadata", TimelineMetadataUtils.deserializeHoodieRollbackMetadata(
                timeline.getInstantDetails(instant).get()));
          }
          break;
        case HoodieTimeline.SAVEPOINT_ACTION:
          if (instant.isCompleted()) {
            print(out, instant, "metadata", TimelineMetadataUtils.deserializeHoodieSavepointMetadata(
                timeline.getInstantDetails(instant).get()));
          }
          break;
        case HoodieTimeline.RESTORE_ACTION:
          print(out, instant, "plan", TimelineMetadataUtils.deserializeAvroMetadata(
              timeline.getInstantDetails(requested).get(), HoodieRestorePlan.class));
          if (instant.isCompleted()) {
            print(out, instant, "metadata", TimelineMetadataUtils.deserializeHoodieRestoreMetadata(
                timeline.getInstantDetails(instant).get()));
          }
          break;
        default:
          break;
      }
    }
  }

  private static void print(PrintStream out, HoodieInstant instant, String kind, SpecificRecordBase value)
      throws IOException {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("time", instant.getTimestamp());
    line.put("action", instant.getAction());
    line.put("state", instant.getState().name());
    line.put("kind", kind);
    line.put("value", JSON.readTree(value.toString()));
    out.println(JSON.writeValueAsString(line));
  }
}
