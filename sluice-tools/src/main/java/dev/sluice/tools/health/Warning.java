package dev.sluice.tools.health;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One table health finding: a stable code, a sentence for people, and the figures behind it (threshold included).
 *
 * @param code stable identifier, e.g. {@code COMPACTION_NOT_SCHEDULED}
 * @param message what was found and what to do, one or two sentences
 * @param numbers the figures the message quotes, by name, in a stable order
 */
public record Warning(String code, String message, Map<String, Number> numbers) {
  /** Copies the numbers, keeping their order. */
  public Warning {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
    numbers = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(numbers, "numbers")));
  }

  /** Slices with more log files than the threshold. */
  public static final String LOG_FILES = "COMPACTION_BEHIND_LOG_FILES";
  /** Slices with more delta commits since their base file than the threshold. */
  public static final String DELTA_COMMITS = "COMPACTION_BEHIND_DELTA_COMMITS";
  /** A requested or inflight compaction older than the limit. */
  public static final String PENDING_COMPACTION_AGE = "COMPACTION_PENDING_TOO_LONG";
  /** A Merge-on-Read table past the delta-commit threshold with no compaction scheduled. */
  public static final String NOT_SCHEDULED = "COMPACTION_NOT_SCHEDULED";
  /** Copy-on-Write upserts rewriting many file groups for few changed records. */
  public static final String SCATTERED_UPSERTS = "COW_UPSERTS_REWRITE_MANY_FILE_GROUPS";
  /** A corrupt log block that snapshot queries skip (rows of a committed write lost, or a failed write's leftover). */
  public static final String CORRUPT_LOG_BLOCK = "CORRUPT_LOG_BLOCK";
}
