package dev.sluice.internal.timeline.avro;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The content of {@code <ts>.restore} ({@code HoodieRestoreMetadata}): the instants rolled back and each one's
 * rollback metadata.
 *
 * @param startRestoreTime the restore's instant time
 * @param timeTakenInMillis duration
 * @param instantsToRollback times of the instants rolled back
 * @param rollbacks instant time → its rollback metadata
 * @param version metadata version (1)
 * @param restoreInstantInfo the instants rolled back, with actions
 */
public record RestoreMetadata(String startRestoreTime, long timeTakenInMillis, List<String> instantsToRollback,
    Map<String, List<RollbackMetadata>> rollbacks, int version, List<InstantInfo> restoreInstantInfo) {

  /** Copies collections and rejects nulls. */
  public RestoreMetadata {
    Objects.requireNonNull(startRestoreTime, "startRestoreTime");
    instantsToRollback = List.copyOf(instantsToRollback);
    Map<String, List<RollbackMetadata>> m = new LinkedHashMap<>();
    rollbacks.forEach((k, v) -> m.put(k, List.copyOf(v)));
    rollbacks = Collections.unmodifiableMap(m);
    restoreInstantInfo = List.copyOf(restoreInstantInfo);
  }

  /** The container-file bytes Hudi writes. */
  public byte[] toAvroBytes() {
    Schema s = AvroContainer.schema(AvroContainer.RESTORE_METADATA);
    GenericRecord r = new GenericData.Record(s);
    r.put("startRestoreTime", startRestoreTime);
    r.put("timeTakenInMillis", timeTakenInMillis);
    r.put("instantsToRollback", new ArrayList<>(instantsToRollback));
    Schema rollbackSchema = AvroValues.nonNull(AvroValues.fieldSchema(s, "hoodieRestoreMetadata").getValueType()
        .getElementType());
    Map<String, List<GenericRecord>> m = new LinkedHashMap<>();
    rollbacks.forEach((k, list) -> {
      List<GenericRecord> recs = new ArrayList<>();
      list.forEach(md -> recs.add(md.toAvro(rollbackSchema)));
      m.put(k, recs);
    });
    r.put("hoodieRestoreMetadata", m);
    r.put("version", version);
    Schema info = AvroValues.fieldSchema(s, "restoreInstantInfo").getElementType();
    List<GenericRecord> infos = new ArrayList<>();
    restoreInstantInfo.forEach(i -> infos.add(i.toAvro(info)));
    r.put("restoreInstantInfo", infos);
    return AvroContainer.write(r);
  }

  /** Parses a {@code .restore} file. */
  public static RestoreMetadata fromAvroBytes(byte[] bytes, String where) {
    GenericRecord r = AvroContainer.readRequired(bytes, AvroContainer.schema(AvroContainer.RESTORE_METADATA), where);
    Map<String, List<RollbackMetadata>> m = new LinkedHashMap<>();
    AvroValues.map(r, "hoodieRestoreMetadata").forEach((k, v) -> {
      List<RollbackMetadata> list = new ArrayList<>();
      if (v instanceof List<?> l) {
        for (Object o : l) {
          if (o instanceof GenericRecord g) {
            list.add(RollbackMetadata.fromAvro(g));
          }
        }
      }
      m.put(k, list);
    });
    List<InstantInfo> infos = new ArrayList<>();
    AvroValues.records(r, "restoreInstantInfo").forEach(g -> infos.add(InstantInfo.fromAvro(g)));
    Object v = r.get("version");
    return new RestoreMetadata(AvroValues.string(r, "startRestoreTime"), AvroValues.longValue(r, "timeTakenInMillis"),
        AvroValues.strings(r, "instantsToRollback"), m, v instanceof Integer i ? i : 1, infos);
  }
}
