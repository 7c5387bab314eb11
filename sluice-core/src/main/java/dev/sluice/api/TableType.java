package dev.sluice.api;

/** The two Hudi table types; the names are the values of {@code hoodie.table.type}. */
public enum TableType {
  /** Every write rewrites base files; no log files. */
  COPY_ON_WRITE,
  /** Updates go to log files that compaction later folds into base files. */
  MERGE_ON_READ
}
