package dev.sluice.internal.timeline.lsm;

import dev.sluice.internal.error.Errors;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * One archived instant, one row of an LSM timeline file: Hudi's {@code HoodieLSMTimelineInstant} record.
 *
 * @param instantTime the requested time
 * @param completionTime the completion time (from the completed file's name)
 * @param action the completed action ({@code commit} for a compaction, {@code replacecommit} for a clustering)
 * @param metadata the completed file's bytes; empty when that file was empty
 * @param plan the plan's bytes: the clean plan, the (log) compaction plan, for a replacecommit or clustering the
 *     inflight file if it has content else the requested file; empty for other actions
 */
public record LsmInstant(String instantTime, String completionTime, String action, Optional<byte[]> metadata,
    Optional<byte[]> plan) {

  /**
   * {@code HoodieLSMTimelineInstant.SCHEMA$} of Hudi 1.0/1.1 (the footer's {@code parquet.avro.schema}): Hudi's
   * readers project it by name, and an identical schema keeps the footer identical too.
   */
  public static final Schema SCHEMA = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"HoodieLSMTimelineInstant\","
      + "\"namespace\":\"org.apache.hudi.avro.model\",\"fields\":["
      + "{\"name\":\"instantTime\",\"type\":[\"null\",{\"type\":\"string\",\"avro.java.string\":\"String\"}],\"default\":null},"
      + "{\"name\":\"completionTime\",\"type\":[\"null\",{\"type\":\"string\",\"avro.java.string\":\"String\"}],\"default\":null},"
      + "{\"name\":\"action\",\"type\":[\"null\",{\"type\":\"string\",\"avro.java.string\":\"String\"}],\"default\":null},"
      + "{\"name\":\"metadata\",\"type\":[\"null\",\"bytes\"],\"default\":null},"
      + "{\"name\":\"plan\",\"type\":[\"null\",\"bytes\"],\"default\":null},"
      + "{\"name\":\"version\",\"type\":\"int\",\"default\":1}]}");

  /** {@code LSMTimeline.LSM_TIMELINE_INSTANT_VERSION_1}, the only row version. */
  static final int VERSION_1 = 1;

  /** Rejects nulls; keeps its own copies of the bytes. */
  public LsmInstant {
    Objects.requireNonNull(instantTime, "instantTime");
    Objects.requireNonNull(completionTime, "completionTime");
    Objects.requireNonNull(action, "action");
    metadata = Objects.requireNonNull(metadata, "metadata").map(byte[]::clone);
    plan = Objects.requireNonNull(plan, "plan").map(byte[]::clone);
  }

  /** The completed file's bytes (a copy). */
  @Override
  public Optional<byte[]> metadata() {
    return metadata.map(byte[]::clone);
  }

  /** The plan's bytes (a copy). */
  @Override
  public Optional<byte[]> plan() {
    return plan.map(byte[]::clone);
  }

  /** The row as Hudi writes it. */
  GenericRecord toRecord() {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("instantTime", instantTime);
    r.put("completionTime", completionTime);
    r.put("action", action);
    r.put("metadata", metadata.map(ByteBuffer::wrap).orElse(null));
    r.put("plan", plan.map(ByteBuffer::wrap).orElse(null));
    r.put("version", VERSION_1);
    return r;
  }

  /** A row read back; {@code where} names the file in errors. */
  static LsmInstant fromRecord(GenericRecord r, String where) {
    Object time = r.get("instantTime");
    Object completion = r.get("completionTime");
    Object action = r.get("action");
    if (time == null || completion == null || action == null) {
      throw Errors.badTable(where, "an archived instant has no instantTime, completionTime or "
          + "action", "The archived timeline file is damaged; Hudi 1.x cannot read it either.");
    }
    return new LsmInstant(time.toString(), completion.toString(), action.toString(), field(r, "metadata"),
        field(r, "plan"));
  }

  /** The bytes of {@code name}; empty when null or not in the record's (projected) schema. */
  private static Optional<byte[]> field(GenericRecord r, String name) {
    return r.getSchema().getField(name) == null ? Optional.empty() : bytes(r.get(name));
  }

  static Optional<byte[]> bytes(Object v) {
    if (v == null) {
      return Optional.empty();
    }
    ByteBuffer b = ((ByteBuffer) v).duplicate();
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return Optional.of(out);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LsmInstant other && instantTime.equals(other.instantTime)
        && completionTime.equals(other.completionTime) && action.equals(other.action)
        && sameBytes(metadata, other.metadata) && sameBytes(plan, other.plan);
  }

  private static boolean sameBytes(Optional<byte[]> a, Optional<byte[]> b) {
    return a.isPresent() == b.isPresent() && (a.isEmpty() || Arrays.equals(a.get(), b.get()));
  }

  @Override
  public int hashCode() {
    return Objects.hash(instantTime, completionTime, action);
  }

  @Override
  public String toString() {
    return instantTime + "_" + completionTime + "." + action;
  }
}
