package dev.sluice.internal.timeline.avro;

import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * An instant named by time and action ({@code HoodieInstantInfo}), as rollback and restore metadata record it.
 *
 * @param commitTime the instant time
 * @param action the action id, e.g. {@code commit}
 */
public record InstantInfo(String commitTime, String action) {
  /** Rejects nulls. */
  public InstantInfo {
    Objects.requireNonNull(commitTime, "commitTime");
    Objects.requireNonNull(action, "action");
  }

  /** The info of an instant. */
  public static InstantInfo of(Instant instant) {
    return new InstantInfo(instant.time(), instant.action().id());
  }

  /** The action, if Sluice knows it. */
  public java.util.Optional<Action> knownAction() {
    return Action.fromId(action);
  }

  /** The Avro record of this info in {@code schema} (a {@code HoodieInstantInfo} schema). */
  public GenericRecord toAvro(Schema schema) {
    GenericRecord r = new GenericData.Record(schema);
    r.put("commitTime", commitTime);
    r.put("action", action);
    return r;
  }

  /** Reads a {@code HoodieInstantInfo} record. */
  public static InstantInfo fromAvro(GenericRecord r) {
    return new InstantInfo(AvroValues.string(r, "commitTime"), AvroValues.string(r, "action"));
  }
}
