package dev.sluice.internal.commit;

/** What a write does to a data file ({@code IOType}); the marker name ends with it. */
public enum IOType {
  /** A new file group's first base file. */
  CREATE,
  /** A new version of a file group's base file. */
  MERGE,
  /** Log blocks appended to a log file. */
  APPEND
}
