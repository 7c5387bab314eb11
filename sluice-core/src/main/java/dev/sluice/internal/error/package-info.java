/**
 * User-facing failures: {@code SluiceException} is the one unchecked exception Sluice throws to its users, with an
 * {@code ErrorKind} (bad input, bad table, bad config, conflict, storage, unsupported, internal), and {@code
 * Errors} is the single factory that makes them, so every message says what failed, why and how to fix it (see
 * EXCEPTION_PRINCIPLES.md).
 */
package dev.sluice.internal.error;
