package dev.sluice.tools.records;

import dev.sluice.api.SluiceException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A value that does not fit its schema, found below the level that knows the file and line. Each enclosing
 * reader prepends its field name or index while the error unwinds, so the happy path builds no paths. Never
 * escapes this package: the source converts it with {@link #toException(String)}.
 */
final class FieldError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String problem;
  private final String expected;
  private final transient Deque<String> path = new ArrayDeque<>();

  FieldError(String problem, String expected) {
    // No stack trace: unions try branches and catch these, so throwing must be cheap.
    super(problem, null, false, false);
    this.problem = problem;
    this.expected = expected;
  }

  /** Prepends a record field name. */
  FieldError inField(String name) {
    path.addFirst(name);
    return this;
  }

  /** Prepends an array index. */
  FieldError atIndex(int index) {
    path.addFirst("[" + index + "]");
    return this;
  }

  /** Prepends a map key. */
  FieldError atKey(String key) {
    path.addFirst("[\"" + key + "\"]");
    return this;
  }

  String problem() {
    return problem;
  }

  String expected() {
    return expected;
  }

  /** The dotted path ({@code address.city}, {@code tags[2]}), or null at the top level. */
  String path() {
    if (path.isEmpty()) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    for (String segment : path) {
      if (sb.length() > 0 && segment.charAt(0) != '[') {
        sb.append('.');
      }
      sb.append(segment);
    }
    return sb.toString();
  }

  /** The user-facing error, located at {@code where} (file and line or record). */
  SluiceException toException(String where) {
    return SluiceException.badInput(where, path(), problem, expected);
  }
}
