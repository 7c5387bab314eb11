package dev.sluice.internal.savepoint;

import dev.sluice.internal.timeline.avro.AvroContainer;
import dev.sluice.internal.timeline.avro.AvroValues;
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
 * The content of {@code <ts>.savepoint} ({@code HoodieSavepointMetadata}): who made it, when, and the data files
 * of the latest file slices as of the savepointed commit, per partition (the cleaner keeps them).
 *
 * @param savepointedBy user
 * @param savepointedAt epoch milliseconds of the savepoint
 * @param comments free text
 * @param partitionFiles partition path → file names of the latest slices
 * @param version metadata version (1)
 */
public record SavepointMetadata(String savepointedBy, long savepointedAt, String comments,
    Map<String, List<String>> partitionFiles, int version) {

  /** Copies the map and rejects nulls. */
  public SavepointMetadata {
    Objects.requireNonNull(savepointedBy, "savepointedBy");
    Objects.requireNonNull(comments, "comments");
    Map<String, List<String>> m = new LinkedHashMap<>();
    partitionFiles.forEach((k, v) -> m.put(k, List.copyOf(v)));
    partitionFiles = Collections.unmodifiableMap(m);
  }

  /** The container-file bytes Hudi writes. */
  public byte[] toAvroBytes() {
    Schema s = AvroContainer.schema(AvroContainer.SAVEPOINT_METADATA);
    GenericRecord r = new GenericData.Record(s);
    r.put("savepointedBy", savepointedBy);
    r.put("savepointedAt", savepointedAt);
    r.put("comments", comments);
    Schema part = AvroValues.fieldSchema(s, "partitionMetadata").getValueType();
    Map<String, GenericRecord> parts = new LinkedHashMap<>();
    partitionFiles.forEach((p, files) -> {
      GenericRecord g = new GenericData.Record(part);
      g.put("partitionPath", p);
      g.put("savepointDataFile", new ArrayList<>(files));
      parts.put(p, g);
    });
    r.put("partitionMetadata", parts);
    r.put("version", version);
    return AvroContainer.write(r);
  }

  /** Parses a {@code .savepoint} file. */
  public static SavepointMetadata fromAvroBytes(byte[] bytes, String where) {
    GenericRecord r = AvroContainer.readRequired(bytes, AvroContainer.schema(AvroContainer.SAVEPOINT_METADATA), where);
    Map<String, List<String>> parts = new LinkedHashMap<>();
    AvroValues.map(r, "partitionMetadata").forEach((k, v) -> parts.put(k, AvroValues.strings((GenericRecord) v,
        "savepointDataFile")));
    Object v = r.get("version");
    return new SavepointMetadata(AvroValues.string(r, "savepointedBy"), AvroValues.longValue(r, "savepointedAt"),
        AvroValues.string(r, "comments"), parts, v instanceof Integer i ? i : 1);
  }
}
