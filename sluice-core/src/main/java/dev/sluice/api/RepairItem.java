package dev.sluice.api;

import java.util.Objects;

/**
 * One piece of damage a repair found ({@link Table#repair}).
 *
 * @param kind {@code TABLE_CONFIG}, {@code BROKEN_INSTANT}, {@code CORRUPT_LOG_BLOCK}, {@code LEFTOVER_FILE},
 *     {@code STALE_STATE} or {@code PARTITION_METADATA}
 * @param path the file or folder concerned
 * @param problem what is wrong
 * @param action what the repair does (or did) about it, or why it does nothing
 * @param fixable true if the repair has a fix for it
 * @param fixed true if the fix was made (never in a dry run)
 */
public record RepairItem(String kind, String path, String problem, String action, boolean fixable, boolean fixed) {
  /** Rejects nulls. */
  public RepairItem {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(problem, "problem");
    Objects.requireNonNull(action, "action");
  }
}
