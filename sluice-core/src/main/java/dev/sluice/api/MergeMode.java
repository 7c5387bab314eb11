package dev.sluice.api;

import java.util.Optional;

/**
 * How two versions of one record key are reconciled, recorded in {@code hoodie.properties} as Hudi's payload
 * class so that Hudi merges the same way.
 */
public enum MergeMode {
  /** The version with the larger ordering (precombine) value wins, even against stored data (Hudi's DefaultHoodieRecordPayload). */
  EVENT_TIME_ORDERING("org.apache.hudi.common.model.DefaultHoodieRecordPayload"),
  /** The incoming version always replaces the stored one (Hudi's OverwriteWithLatestAvroPayload). */
  COMMIT_TIME_ORDERING("org.apache.hudi.common.model.OverwriteWithLatestAvroPayload");

  private final String payloadClass;

  MergeMode(String payloadClass) {
    this.payloadClass = payloadClass;
  }

  /** Hudi's payload class name for this mode. */
  public String payloadClass() {
    return payloadClass;
  }

  /**
   * The mode of a table from its payload class. Absent means Hudi's default for that table, which is
   * OverwriteWithLatestAvroPayload; unknown payload classes are treated the same way.
   */
  public static MergeMode fromPayloadClass(Optional<String> payloadClass) {
    return payloadClass.filter(EVENT_TIME_ORDERING.payloadClass::equals).isPresent()
        ? EVENT_TIME_ORDERING : COMMIT_TIME_ORDERING;
  }
}
