package dev.sluice.internal.repair;

import java.util.Objects;
import java.util.Optional;

/**
 * One piece of damage a repair found.
 *
 * @param kind what sort of damage
 * @param path the file or folder concerned
 * @param problem what is wrong, for people
 * @param action what the repair does about it, or why it does nothing
 * @param step the fix, if the repair can make one without losing a committed row it could otherwise keep
 */
public record Finding(Kind kind, String path, String problem, String action, Optional<Step> step) {
  /** Rejects nulls. */
  public Finding {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(problem, "problem");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(step, "step");
  }

  /** A finding the repair fixes with {@code step}. */
  static Finding fix(Kind kind, String path, String problem, String action, Step step) {
    return new Finding(kind, path, problem, action, Optional.of(step));
  }

  /** A finding the repair only reports. */
  static Finding report(Kind kind, String path, String problem, String action) {
    return new Finding(kind, path, problem, action, Optional.empty());
  }

  /**
   * The problem part of a BAD_TABLE error ({@code Cannot use table data at PATH: PROBLEM. FIX}), without the path
   * (the finding names it) and the fix (the finding's action is the fix).
   */
  static String reason(String message) {
    String m = message;
    int colon = m.startsWith("Cannot use table data at ") ? m.indexOf(": ") : -1;
    if (colon >= 0) {
      m = m.substring(colon + 2);
    }
    for (int i = m.indexOf(". "); i >= 0; i = m.indexOf(". ", i + 1)) {
      if (i + 2 < m.length() && Character.isUpperCase(m.charAt(i + 2))) {
        return m.substring(0, i);
      }
    }
    return m;
  }

  /** Sorts of damage, in the order a repair fixes them. */
  public enum Kind {
    /** {@code hoodie.properties} missing or damaged, or a stale backup of it. */
    TABLE_CONFIG,
    /** An instant file that is empty where it must hold content, or does not decode. */
    BROKEN_INSTANT,
    /** A log block that is cut short or whose bytes do not decode. */
    CORRUPT_LOG_BLOCK,
    /** A data or log file no instant accounts for (a failed write's output). */
    LEFTOVER_FILE,
    /** Markers, heartbeats or temp files of instants that are no longer running. */
    STALE_STATE,
    /** A partition folder holding data files but no {@code .hoodie_partition_metadata}: readers do not see it. */
    PARTITION_METADATA
  }

  /** A fix. */
  @FunctionalInterface
  interface Step {
    /** Makes the fix; files it changes go to {@code backup} first. */
    void apply(RepairBackup backup);
  }
}
