package dev.sluice.internal.error;

/**
 * The one unchecked exception type Sluice throws to its users. Every instance is made by {@link Errors},
 * so its message says what failed, why, and how to fix it.
 */
public class SluiceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorKind kind;

  SluiceException(ErrorKind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /** The category of the failure, for callers that react differently (e.g. retry on a conflict). */
  public ErrorKind kind() {
    return kind;
  }
}
