package dev.sluice.api;

import java.io.IOException;

/**
 * The one unchecked exception type Sluice throws to its users. Every instance is made by one of the static factories
 * below (the engine calls them through its internal {@code Errors}; front ends such as the CLI and the tools call
 * them directly), so its message says what failed, why, and how to fix it: {@code <what failed>: <why>. <how to fix>}.
 */
public class SluiceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Categories of user-facing failures. */
  public enum Kind {
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
    /** The JVM ran out of memory (or stack) for the work asked of it. */
    RESOURCES,
    /** A broken invariant inside Sluice: a bug. */
    INTERNAL
  }

  private final Kind kind;

  private SluiceException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /** The category of the failure, for callers that react differently (e.g. retry on a conflict). */
  public Kind kind() {
    return kind;
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
    return new SluiceException(Kind.BAD_INPUT, sb.toString(), null);
  }

  /** Bad input with a cause (a parser's exception). */
  public static SluiceException badInput(String where, String problem, Throwable cause) {
    return new SluiceException(Kind.BAD_INPUT, "Bad input at " + where + ": " + problem, cause);
  }

  /** A table on storage that is missing or damaged. */
  public static SluiceException badTable(String path, String problem, String fix) {
    return new SluiceException(Kind.BAD_TABLE, message("Cannot use table data at " + path, problem, fix), null);
  }

  /** A table on storage that is damaged, with the underlying cause. */
  public static SluiceException badTable(String path, String problem, String fix, Throwable cause) {
    return new SluiceException(Kind.BAD_TABLE, message("Cannot use table data at " + path, problem, fix), cause);
  }

  /** An invalid configuration key or value. */
  public static SluiceException badConfig(String key, String value, String expected) {
    return new SluiceException(Kind.BAD_CONFIG,
        "Invalid configuration '" + key + "=" + value + "': expected " + expected + ".", null);
  }

  /** An invalid request, such as a bad option combination. */
  public static SluiceException badRequest(String what, String problem, String fix) {
    return new SluiceException(Kind.BAD_CONFIG, message(what, problem, fix), null);
  }

  /** A concurrent writer got there first. */
  public static SluiceException conflict(String what, String problem) {
    return new SluiceException(Kind.CONFLICT, message(what, problem, "Retry the write."), null);
  }

  /** An I/O failure on storage while doing {@code action} on {@code path}. */
  public static SluiceException storage(String action, String path, IOException cause) {
    return new SluiceException(Kind.STORAGE,
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
    return new SluiceException(Kind.UNSUPPORTED, message(what + " is not supported", null, fix), null);
  }

  /**
   * The JVM ran out of memory (or stack) during {@code what} ({@code where}: the input line being read, or null).
   * The message names the heap limit and how to raise it; the cause is kept for {@code --verbose}.
   */
  public static SluiceException outOfResources(String what, String where, VirtualMachineError cause) {
    boolean stack = cause instanceof StackOverflowError;
    long maxMiB = Runtime.getRuntime().maxMemory() / (1024 * 1024);
    String problem = stack ? "the Java stack overflowed (the input nests too deeply for it)"
        : "the Java heap (at most " + maxMiB + " MiB) ran out";
    String fix = stack ? "Give the JVM a larger stack (-Xss) or nest less deeply."
        : "Give the JVM more memory (SLUICE_JAVA_OPTS=-Xmx..., or -Xmx for java), lower hoodie.memory.merge.max.size "
            + "so more of the batch spills to disk, or write the input in smaller files.";
    return new SluiceException(Kind.RESOURCES, message(what + (where != null ? " at " + where : ""), problem, fix),
        cause);
  }

  /** A bug: an invariant that should hold does not. */
  public static SluiceException internal(String problem, Throwable cause) {
    return new SluiceException(Kind.INTERNAL, "Internal error (a bug in Sluice): " + problem, cause);
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
