package dev.sluice.internal.timeline.avro;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The content of {@code <ts>.rollback.requested} ({@code HoodieRollbackPlan}): the instant to roll back and the
 * steps that undo it.
 *
 * @param instantToRollback the instant rolled back
 * @param requests the steps
 * @param version plan version (Hudi 0.15 writes 1)
 */
public record RollbackPlan(InstantInfo instantToRollback, List<RollbackRequest> requests, int version) {
  /** {@code BaseRollbackPlanActionExecutor.LATEST_ROLLBACK_PLAN_VERSION}. */
  public static final int VERSION = 1;

  /** Copies the list and rejects nulls. */
  public RollbackPlan {
    Objects.requireNonNull(instantToRollback, "instantToRollback");
    requests = List.copyOf(requests);
  }

  /** The container-file bytes Hudi writes. */
  public byte[] toAvroBytes() {
    Schema s = AvroContainer.schema(AvroContainer.ROLLBACK_PLAN);
    GenericRecord r = new GenericData.Record(s);
    r.put("instantToRollback", instantToRollback.toAvro(AvroValues.fieldSchema(s, "instantToRollback")));
    Schema reqSchema = AvroValues.fieldSchema(s, "RollbackRequests").getElementType();
    List<GenericRecord> reqs = new ArrayList<>();
    for (RollbackRequest q : requests) {
      GenericRecord g = new GenericData.Record(reqSchema);
      g.put("partitionPath", q.partitionPath());
      g.put("fileId", q.fileId());
      g.put("latestBaseInstant", q.latestBaseInstant());
      g.put("filesToBeDeleted", new ArrayList<>(q.filesToBeDeleted()));
      g.put("logBlocksToBeDeleted", new java.util.LinkedHashMap<>(q.logBlocksToBeDeleted()));
      reqs.add(g);
    }
    r.put("RollbackRequests", reqs);
    r.put("version", version);
    return AvroContainer.write(r);
  }

  /** Parses a {@code .rollback.requested} file; {@code where} names it in errors. */
  public static RollbackPlan fromAvroBytes(byte[] bytes, String where) {
    GenericRecord r = AvroContainer.readRequired(bytes, AvroContainer.schema(AvroContainer.ROLLBACK_PLAN), where);
    Object info = r.get("instantToRollback");
    InstantInfo target = info instanceof GenericRecord g ? InstantInfo.fromAvro(g) : new InstantInfo("", "");
    List<RollbackRequest> reqs = new ArrayList<>();
    for (GenericRecord g : AvroValues.records(r, "RollbackRequests")) {
      reqs.add(new RollbackRequest(AvroValues.string(g, "partitionPath"), AvroValues.string(g, "fileId"),
          AvroValues.string(g, "latestBaseInstant"), AvroValues.strings(g, "filesToBeDeleted"),
          AvroValues.longMap(g, "logBlocksToBeDeleted")));
    }
    Object v = r.get("version");
    return new RollbackPlan(target, reqs, v instanceof Integer i ? i : VERSION);
  }
}
