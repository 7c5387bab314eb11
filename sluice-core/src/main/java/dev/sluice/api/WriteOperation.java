package dev.sluice.api;

/** The write operations Sluice offers, each recorded on the timeline under Hudi's operation name. */
public enum WriteOperation {
  /** Tagged insert: existing keys are updated (as Hudi does when the index finds them), new keys inserted. */
  INSERT,
  /** Update existing keys, insert new ones, delete those marked {@code _hoodie_is_deleted = true}. */
  UPSERT,
  /** Delete the given keys (full records or key-only rows). */
  DELETE,
  /** Initial load: no tagging, records sorted by partition and key, files sized to the target. */
  BULK_INSERT
}
