package dev.sluice.internal.commit;

import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import java.util.Locale;

/** {@code hoodie.cleaner.policy.failed.writes} ({@code HoodieFailedWritesCleaningPolicy}). */
public enum FailedWritesPolicy {
  /** Every write first rolls back all pending writes (only safe with a single writer). */
  EAGER,
  /** Only pending writes whose heartbeat expired are rolled back; writers keep heartbeats. */
  LAZY,
  /** Failed writes are left for an explicit {@code sluice rollback}. */
  NEVER;

  /**
   * The configured policy; optimistic concurrency control forces LAZY, as Hudi's write config does, since an eager
   * writer would roll back its live neighbours.
   */
  public static FailedWritesPolicy of(CommitSettings settings) {
    if (ConcurrencyMode.of(settings) == ConcurrencyMode.OPTIMISTIC_CONCURRENCY_CONTROL) {
      return LAZY;
    }
    String v = settings.failedWritesPolicy().toUpperCase(Locale.ROOT);
    try {
      return valueOf(v);
    } catch (IllegalArgumentException e) {
      throw Errors.badConfig(ConfigKeys.FAILED_WRITES_POLICY.name(), v, "EAGER, LAZY or NEVER");
    }
  }
}
