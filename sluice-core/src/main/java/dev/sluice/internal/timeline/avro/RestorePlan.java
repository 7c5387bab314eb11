package dev.sluice.internal.timeline.avro;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The content of {@code <ts>.restore.requested} ({@code HoodieRestorePlan}): the instants after the savepoint,
 * newest first, to roll back.
 *
 * @param instantsToRollback the instants, in rollback order
 * @param version plan version (Hudi 0.15 writes 2)
 * @param savepointToRestoreTimestamp the savepoint restored to
 */
public record RestorePlan(List<InstantInfo> instantsToRollback, int version, String savepointToRestoreTimestamp) {
  /** {@code RestorePlanActionExecutor.LATEST_RESTORE_PLAN_VERSION}. */
  public static final int VERSION = 2;

  /** Copies the list and rejects nulls. */
  public RestorePlan {
    instantsToRollback = List.copyOf(instantsToRollback);
    Objects.requireNonNull(savepointToRestoreTimestamp, "savepointToRestoreTimestamp");
  }

  /** The container-file bytes Hudi writes. */
  public byte[] toAvroBytes() {
    Schema s = AvroContainer.schema(AvroContainer.RESTORE_PLAN);
    GenericRecord r = new GenericData.Record(s);
    Schema info = AvroValues.fieldSchema(s, "instantsToRollback").getElementType();
    List<GenericRecord> infos = new ArrayList<>();
    instantsToRollback.forEach(i -> infos.add(i.toAvro(info)));
    r.put("instantsToRollback", infos);
    r.put("version", version);
    r.put("savepointToRestoreTimestamp", savepointToRestoreTimestamp);
    return AvroContainer.write(r);
  }

  /** Parses a {@code .restore.requested} file. */
  public static RestorePlan fromAvroBytes(byte[] bytes, String where) {
    GenericRecord r = AvroContainer.readRequired(bytes, AvroContainer.schema(AvroContainer.RESTORE_PLAN), where);
    List<InstantInfo> infos = new ArrayList<>();
    AvroValues.records(r, "instantsToRollback").forEach(g -> infos.add(InstantInfo.fromAvro(g)));
    Object v = r.get("version");
    return new RestorePlan(infos, v instanceof Integer i ? i : VERSION, AvroValues.string(r, "savepointToRestoreTimestamp"));
  }
}
