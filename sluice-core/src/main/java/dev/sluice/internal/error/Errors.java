package dev.sluice.internal.error;

import java.io.IOException;

/**
 * The single factory of user-facing errors (see EXCEPTION_PRINCIPLES.md). Messages follow one shape:
 * {@code <what failed>: <why>. <how to fix>}, naming the file, line, record or field involved.
 */
public final class Errors {
  private Errors() {
  }

  /** Bad input: {@code where} names the file and line or record, {@code field} may be null. */
  public static SluiceException badInput(String where, String field, String problem, String expected) {
    StringBuilder sb = new StringBuilder("Bad input at ").append(where);
    if (field != null) {
      sb.append(", field '").append(field).append('\'');
    }
    sb.append(": ").append(problem);
    if (expected != null) {
      sb.append("; expected ").append(expected);
    }
    return new SluiceException(ErrorKind.BAD_INPUT, sb.toString(), null);
  }

  /** Bad input with a cause (a parser's exception). */
  public static SluiceException badInput(String where, String problem, Throwable cause) {
    return new SluiceException(ErrorKind.BAD_INPUT, "Bad input at " + where + ": " + problem, cause);
  }

  /** A table on storage that is missing or damaged. */
  public static SluiceException badTable(String path, String problem, String fix) {
    return new SluiceException(ErrorKind.BAD_TABLE, message("Cannot use table data at " + path, problem, fix), null);
  }

  /** A table on storage that is damaged, with the underlying cause. */
  public static SluiceException badTable(String path, String problem, String fix, Throwable cause) {
    return new SluiceException(ErrorKind.BAD_TABLE, message("Cannot use table data at " + path, problem, fix), cause);
  }

  /** An invalid configuration key or value. */
  public static SluiceException badConfig(String key, String value, String expected) {
    return new SluiceException(ErrorKind.BAD_CONFIG,
        "Invalid configuration '" + key + "=" + value + "': expected " + expected + ".", null);
  }

  /** An invalid request, such as a bad option combination. */
  public static SluiceException badRequest(String what, String problem, String fix) {
    return new SluiceException(ErrorKind.BAD_CONFIG, message(what, problem, fix), null);
  }

  /** A concurrent writer got there first. */
  public static SluiceException conflict(String what, String problem) {
    return new SluiceException(ErrorKind.CONFLICT, message(what, problem, "Retry the write."), null);
  }

  /** An I/O failure on storage while doing {@code action} on {@code path}. */
  public static SluiceException storage(String action, String path, IOException cause) {
    return new SluiceException(ErrorKind.STORAGE,
        "Storage failed to " + action + " " + path + ": " + cause.getMessage(), cause);
  }

  /**
   * A table service that runs after a commit (clean, archival) failed: the commit itself is complete, so the
   * message says so, keeps the cause's kind, and tells the user not to repeat the write.
   */
  public static SluiceException afterCommit(String instantTime, String service, SluiceException cause) {
    return new SluiceException(cause.kind(), "Commit " + instantTime + " is complete, but " + service
        + " after it failed: " + cause.getMessage() + " Do not repeat the write; run the service again on its own.", cause);
  }

  /** A feature that is not supported. */
  public static SluiceException unsupported(String what, String fix) {
    return new SluiceException(ErrorKind.UNSUPPORTED, message(what + " is not supported", null, fix), null);
  }

  /** A bug: an invariant that should hold does not. */
  public static SluiceException internal(String problem, Throwable cause) {
    return new SluiceException(ErrorKind.INTERNAL, "Internal error (a bug in Sluice): " + problem, cause);
  }

  private static String message(String what, String problem, String fix) {
    StringBuilder sb = new StringBuilder(what);
    if (problem != null) {
      sb.append(": ").append(problem);
    }
    if (sb.charAt(sb.length() - 1) != '.') {
      sb.append('.');
    }
    if (fix != null) {
      sb.append(' ').append(fix);
    }
    return sb.toString();
  }
}
