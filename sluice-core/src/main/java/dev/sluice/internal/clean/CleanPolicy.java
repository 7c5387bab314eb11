package dev.sluice.internal.clean;

import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import java.util.Arrays;
import java.util.Locale;

/** What the cleaner keeps ({@code HoodieCleaningPolicy}); the name is what plans and clean metadata record. */
public enum CleanPolicy {
  /** Every file slice a query as of one of the last N completed commits reads, plus the latest slice of each group. */
  KEEP_LATEST_COMMITS,
  /** The newest N slices of each file group. */
  KEEP_LATEST_FILE_VERSIONS,
  /** Like {@link #KEEP_LATEST_COMMITS}, with the window given in hours instead of commits. */
  KEEP_LATEST_BY_HOURS;

  /** The policy named {@code value} (case-insensitive); BAD_CONFIG otherwise. */
  public static CleanPolicy parse(String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw Errors.badConfig(ConfigKeys.CLEANER_POLICY.name(), value, "one of " + Arrays.toString(values()));
    }
  }
}
