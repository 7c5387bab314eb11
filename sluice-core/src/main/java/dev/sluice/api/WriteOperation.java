package dev.sluice.api;

import dev.sluice.internal.timeline.WriteOperationType;

/** The write operations Sluice offers, each recorded on the timeline under Hudi's operation name. */
public enum WriteOperation {
  /** Tagged insert: existing keys are updated (as Hudi does when the index finds them), new keys inserted. */
  INSERT(WriteOperationType.INSERT),
  /** Update existing keys, insert new ones, delete those marked {@code _hoodie_is_deleted = true}. */
  UPSERT(WriteOperationType.UPSERT),
  /** Delete the given keys (full records or key-only rows). */
  DELETE(WriteOperationType.DELETE),
  /** Initial load: no tagging, records sorted by partition and key, files sized to the target. */
  BULK_INSERT(WriteOperationType.BULK_INSERT);

  private final WriteOperationType type;

  WriteOperation(WriteOperationType type) {
    this.type = type;
  }

  /** The operation type written into commit metadata. */
  public WriteOperationType type() {
    return type;
  }
}
