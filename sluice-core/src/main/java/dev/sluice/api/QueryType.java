package dev.sluice.api;

/** Hudi's query types. */
public enum QueryType {
  /** The latest committed state: base files merged with their log files. */
  SNAPSHOT,
  /** Base files only: fast, but misses what is still only in log files (MoR). Same as snapshot on CoW. */
  READ_OPTIMIZED,
  /** The latest state of the records written by the instants in a range. */
  INCREMENTAL
}
