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
 * The content of a completed {@code <ts>.rollback} ({@code HoodieRollbackMetadata}); also nested in restore metadata.
 *
 * @param startRollbackTime the rollback's instant time
 * @param timeTakenInMillis duration of the rollback
 * @param totalFilesDeleted files deleted, over all partitions
 * @param commitsRollback times of the instants rolled back
 * @param partitionMetadata what was done per partition
 * @param version metadata version (1)
 * @param instantsRollback the instants rolled back, with actions
 */
public record RollbackMetadata(String startRollbackTime, long timeTakenInMillis, int totalFilesDeleted,
    List<String> commitsRollback, Map<String, PartitionRollback> partitionMetadata, int version,
    List<InstantInfo> instantsRollback) {

  /** {@code TimelineMetadataUtils.DEFAULT_VERSION}. */
  public static final int VERSION = 1;

  /** Copies collections and rejects nulls. */
  public RollbackMetadata {
    Objects.requireNonNull(startRollbackTime, "startRollbackTime");
    commitsRollback = List.copyOf(commitsRollback);
    partitionMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(partitionMetadata));
    instantsRollback = List.copyOf(instantsRollback);
  }

  /** Metadata of a rollback of {@code target} from its per-partition results ({@code convertRollbackMetadata}). */
  public static RollbackMetadata of(String rollbackTime, long millis, InstantInfo target, List<PartitionRollback> stats) {
    Map<String, PartitionRollback> byPartition = new LinkedHashMap<>();
    for (PartitionRollback s : stats) {
      byPartition.merge(s.partitionPath(), s, PartitionRollback::merge);
    }
    int deleted = 0;
    for (PartitionRollback p : byPartition.values()) {
      deleted += p.successDeleteFiles().size();
    }
    return new RollbackMetadata(rollbackTime, millis, deleted, List.of(target.commitTime()), byPartition, VERSION,
        List.of(target));
  }

  /** The container-file bytes of a {@code .rollback} file. */
  public byte[] toAvroBytes() {
    return AvroContainer.write(toAvro(AvroContainer.schema(AvroContainer.ROLLBACK_METADATA)));
  }

  /** This metadata as a record of {@code schema} (the top-level schema or the one nested in restore metadata). */
  public GenericRecord toAvro(Schema schema) {
    GenericRecord r = new GenericData.Record(schema);
    r.put("startRollbackTime", startRollbackTime);
    r.put("timeTakenInMillis", timeTakenInMillis);
    r.put("totalFilesDeleted", totalFilesDeleted);
    r.put("commitsRollback", new ArrayList<>(commitsRollback));
    Schema partSchema = AvroValues.fieldSchema(schema, "partitionMetadata").getValueType();
    Map<String, GenericRecord> parts = new LinkedHashMap<>();
    partitionMetadata.forEach((k, p) -> {
      GenericRecord g = new GenericData.Record(partSchema);
      g.put("partitionPath", p.partitionPath());
      g.put("successDeleteFiles", new ArrayList<>(p.successDeleteFiles()));
      g.put("failedDeleteFiles", new ArrayList<>(p.failedDeleteFiles()));
      g.put("rollbackLogFiles", new LinkedHashMap<>(p.rollbackLogFiles()));
      g.put("logFilesFromFailedCommit", new LinkedHashMap<>(p.logFilesFromFailedCommit()));
      parts.put(k, g);
    });
    r.put("partitionMetadata", parts);
    r.put("version", version);
    Schema infoSchema = AvroValues.fieldSchema(schema, "instantsRollback").getElementType();
    List<GenericRecord> infos = new ArrayList<>();
    instantsRollback.forEach(i -> infos.add(i.toAvro(infoSchema)));
    r.put("instantsRollback", infos);
    return r;
  }

  /** Parses a {@code .rollback} file. */
  public static RollbackMetadata fromAvroBytes(byte[] bytes, String where) {
    return fromAvro(AvroContainer.readRequired(bytes, AvroContainer.schema(AvroContainer.ROLLBACK_METADATA), where));
  }

  /** Reads a {@code HoodieRollbackMetadata} record. */
  public static RollbackMetadata fromAvro(GenericRecord r) {
    Map<String, PartitionRollback> parts = new LinkedHashMap<>();
    AvroValues.map(r, "partitionMetadata").forEach((k, v) -> {
      GenericRecord g = (GenericRecord) v;
      parts.put(k, new PartitionRollback(AvroValues.string(g, "partitionPath"), AvroValues.strings(g, "successDeleteFiles"),
          AvroValues.strings(g, "failedDeleteFiles"), AvroValues.longMap(g, "rollbackLogFiles"),
          AvroValues.longMap(g, "logFilesFromFailedCommit")));
    });
    List<InstantInfo> infos = new ArrayList<>();
    AvroValues.records(r, "instantsRollback").forEach(g -> infos.add(InstantInfo.fromAvro(g)));
    Object v = r.get("version");
    return new RollbackMetadata(AvroValues.string(r, "startRollbackTime"), AvroValues.longValue(r, "timeTakenInMillis"),
        (int) AvroValues.longValue(r, "totalFilesDeleted"), AvroValues.strings(r, "commitsRollback"), parts,
        v instanceof Integer i ? i : VERSION, infos);
  }
}
