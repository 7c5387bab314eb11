package dev.sluice.internal.fsview;

import dev.sluice.internal.error.Errors;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads the file groups a compaction plan covers from a {@code .compaction.requested} file (an Avro container
 * of {@code HoodieCompactionPlan}), generically: only {@code operations[].partitionPath} and {@code fileId}.
 */
final class CompactionPlanFiles {
  private CompactionPlanFiles() {
  }

  /** The file groups of the plan in {@code bytes}; an empty file is an empty plan. */
  static List<FileGroupId> fileGroups(byte[] bytes, String where) {
    List<FileGroupId> out = new ArrayList<>();
    if (bytes.length == 0) {
      return out;
    }
    try (DataFileStream<GenericRecord> in = new DataFileStream<>(new ByteArrayInputStream(bytes), new GenericDatumReader<>())) {
      if (!in.hasNext()) {
        return out;
      }
      GenericRecord plan = in.next();
      Object ops = plan.hasField("operations") ? plan.get("operations") : null;
      if (!(ops instanceof Iterable<?> list)) {
        return out;
      }
      for (Object o : list) {
        if (o instanceof GenericRecord op) {
          Object fileId = op.hasField("fileId") ? op.get("fileId") : null;
          Object partition = op.hasField("partitionPath") ? op.get("partitionPath") : null;
          if (fileId != null) {
            out.add(new FileGroupId(partition == null ? "" : partition.toString(), fileId.toString()));
          }
        }
      }
      return out;
    } catch (IOException | AvroRuntimeException e) {
      throw Errors.badTable(where, "the compaction plan is not a readable Avro file (" + e.getMessage() + ")",
          "Restore the file or roll back the pending compaction.", e);
    }
  }
}
