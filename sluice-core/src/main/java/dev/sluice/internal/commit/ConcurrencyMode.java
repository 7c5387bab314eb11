package dev.sluice.internal.commit;

import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import java.util.Locale;

/** {@code hoodie.write.concurrency.mode} ({@code WriteConcurrencyMode}). */
public enum ConcurrencyMode {
  /** One writer at a time; no lock, no conflict check. */
  SINGLE_WRITER,
  /** Several writers; commits lock the table and fail on overlapping file groups. */
  OPTIMISTIC_CONCURRENCY_CONTROL;

  /** The configured mode. */
  public static ConcurrencyMode of(CommitSettings settings) {
    String v = settings.concurrencyMode().toUpperCase(Locale.ROOT);
    try {
      return valueOf(v);
    } catch (IllegalArgumentException e) {
      throw Errors.badConfig(ConfigKeys.WRITE_CONCURRENCY_MODE.name(), v, "SINGLE_WRITER or OPTIMISTIC_CONCURRENCY_CONTROL");
    }
  }
}
