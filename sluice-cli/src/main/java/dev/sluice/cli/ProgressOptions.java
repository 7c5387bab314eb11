package dev.sluice.cli;

import dev.sluice.api.SluiceException;
import picocli.CommandLine.Option;

/**
 * The progress options of the commands with long steps (the writes, {@code query}, {@code compact}, {@code clean}): a
 * picocli mixin, so every one of them spells them alike.
 */
final class ProgressOptions {
  /** The interval between progress lines when stderr is not a terminal, unless given. */
  static final double DEFAULT_INTERVAL_SECONDS = 5;

  @Option(names = {"-q", "--quiet"}, description = "Print no progress (on a terminal a live bar on stderr, elsewhere "
      + "a line on stderr every --progress-interval seconds). The command's output and warnings are unchanged.")
  boolean quiet;

  @Option(names = "--progress-interval", paramLabel = "S", defaultValue = "5",
      description = "When stderr is not a terminal: seconds between progress lines (default 5; decimals allowed). "
          + "A step shorter than this prints none.")
  double intervalSeconds = DEFAULT_INTERVAL_SECONDS;

  /** The interval in nanoseconds; a BAD_REQUEST if it is not a positive number. */
  long intervalNanos() {
    if (!(intervalSeconds > 0) || Double.isInfinite(intervalSeconds)) {
      throw SluiceException.badRequest("--progress-interval " + intervalSeconds, "it is not a positive number of "
          + "seconds", "Give seconds above 0, e.g. --progress-interval 2 or 0.5.");
    }
    return Math.max(1_000_000L, (long) (intervalSeconds * 1e9));
  }
}
