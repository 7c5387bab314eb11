package dev.sluice.internal.error;

/** Categories of user-facing failures. */
public enum ErrorKind {
  /** Input records or files that do not match the table schema or the expected format. */
  BAD_INPUT,
  /** A table, file or instant on storage that is missing, damaged or not what was expected. */
  BAD_TABLE,
  /** A configuration value or command-line option that is invalid. */
  BAD_CONFIG,
  /** Another writer committed a conflicting change first. */
  CONFLICT,
  /** The storage layer failed (I/O error, permission, network). */
  STORAGE,
  /** A request for something Sluice does not support (yet). */
  UNSUPPORTED,
  /** A broken invariant inside Sluice: a bug. */
  INTERNAL
}
