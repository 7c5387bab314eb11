package dev.sluice.internal.log;

import java.io.IOException;

/** Bytes of a block that cannot be what the format says they are; reported as a damaged table, not an I/O failure. */
final class DamagedContentException extends IOException {
  private static final long serialVersionUID = 1L;

  DamagedContentException(String message) {
    super(message);
  }

  DamagedContentException(String message, Throwable cause) {
    super(message, cause);
  }
}
