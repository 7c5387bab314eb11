package dev.sluice.internal.error;

import dev.sluice.api.SluiceException;
import java.io.IOException;

/**
 * The engine's factory of user-facing errors (see EXCEPTION_PRINCIPLES.md): each method delegates to the factory of the
 * same name on {@link SluiceException}, which shapes the message as {@code <what failed>: <why>. <how to fix>}.
 */
public final class Errors {
  private Errors() {
  }

  /** Bad input: {@code where} names the file and line or record, {@code field} may be null. */
  public static SluiceException badInput(String where, String field, String problem, String expected) {
    return SluiceException.badInput(where, field, problem, expected);
  }

  /** Bad input with a cause (a parser's exception). */
  public static SluiceException badInput(String where, String problem, Throwable cause) {
    return SluiceException.badInput(where, problem, cause);
  }

  /** A table on storage that is missing or damaged. */
  public static SluiceException badTable(String path, String problem, String fix) {
    return SluiceException.badTable(path, problem, fix);
  }

  /** A table on storage that is damaged, with the underlying cause. */
  public static SluiceException badTable(String path, String problem, String fix, Throwable cause) {
    return SluiceException.badTable(path, problem, fix, cause);
  }

  /** An invalid configuration key or value. */
  public static SluiceException badConfig(String key, String value, String expected) {
    return SluiceException.badConfig(key, value, expected);
  }

  /** An invalid request, such as a bad option combination. */
  public static SluiceException badRequest(String what, String problem, String fix) {
    return SluiceException.badRequest(what, problem, fix);
  }

  /** A concurrent writer got there first. */
  public static SluiceException conflict(String what, String problem) {
    return SluiceException.conflict(what, problem);
  }

  /** An I/O failure on storage while doing {@code action} on {@code path}. */
  public static SluiceException storage(String action, String path, IOException cause) {
    return SluiceException.storage(action, path, cause);
  }

  /**
   * A table service that runs after a commit (clean, archival) failed: the commit itself is complete, so the
   * message says so, keeps the cause's kind, and tells the user not to repeat the write.
   */
  public static SluiceException afterCommit(String instantTime, String service, SluiceException cause) {
    return SluiceException.afterCommit(instantTime, service, cause);
  }

  /** A feature that is not supported. */
  public static SluiceException unsupported(String what, String fix) {
    return SluiceException.unsupported(what, fix);
  }

  /** A bug: an invariant that should hold does not. */
  public static SluiceException internal(String problem, Throwable cause) {
    return SluiceException.internal(problem, cause);
  }
}
