package dev.sluice.internal.compact;

import dev.sluice.internal.error.Errors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which of the candidate slices a compaction plan takes, and in what order, as Hudi's strategies of the same class
 * names decide ({@code hoodie.compaction.strategy}). The bounded ones take slices in their order until the IO
 * budget is spent; the slice that spends it is still taken.
 */
public enum CompactionStrategy {
  /** Slices whose log files total at least the size threshold, largest logs first, bounded by the IO budget. */
  LOG_FILE_SIZE("org.apache.hudi.table.action.compact.strategy.LogFileSizeBasedCompactionStrategy"),
  /** Slices with at least the threshold of log files, most log files first, bounded by the IO budget. */
  LOG_FILE_NUM("org.apache.hudi.table.action.compact.strategy.LogFileNumBasedCompactionStrategy"),
  /** Every candidate slice, in partition and file id order. */
  UNBOUNDED("org.apache.hudi.table.action.compact.strategy.UnBoundedCompactionStrategy");

  private final String className;

  CompactionStrategy(String className) {
    this.className = className;
  }

  /** Hudi's class name for this strategy. */
  public String className() {
    return className;
  }

  /** The strategy for a Hudi class name (or its simple name); BAD_CONFIG naming {@code key} otherwise. */
  public static CompactionStrategy parse(String key, String value) {
    String v = value.trim();
    for (CompactionStrategy s : values()) {
      if (s.className.equals(v) || s.className.endsWith("." + v) || s.name().equalsIgnoreCase(v)) {
        return s;
      }
    }
    throw Errors.badConfig(key, value, "one of " + LOG_FILE_SIZE.className + ", " + LOG_FILE_NUM.className + ", "
        + UNBOUNDED.className + " (Sluice implements these three)");
  }

  /** The operations to plan out of {@code candidates} (in file group order), per {@code settings}. */
  public List<CompactionOperation> orderAndFilter(List<CompactionOperation> candidates, CompactionSettings settings) {
    return switch (this) {
      case UNBOUNDED -> List.copyOf(candidates);
      case LOG_FILE_SIZE -> bounded(candidates.stream()
          .filter(op -> op.metric(CompactionOperation.TOTAL_LOG_FILES_SIZE) >= settings.logFileSizeThreshold())
          .sorted(Comparator.comparingDouble((CompactionOperation op) -> op.metric(
              CompactionOperation.TOTAL_LOG_FILES_SIZE)).reversed())
          .toList(), settings.targetIoMb());
      case LOG_FILE_NUM -> bounded(candidates.stream()
          .filter(op -> op.deltaFileNames().size() >= settings.logFileNumThreshold())
          .sorted(Comparator.comparingInt((CompactionOperation op) -> op.deltaFileNames().size()).reversed())
          .toList(), settings.targetIoMb());
    };
  }

  /** {@code BoundedIOCompactionStrategy}: in order, until the IO budget is used up (the crossing one included). */
  private static List<CompactionOperation> bounded(List<CompactionOperation> ordered, long targetIoMb) {
    List<CompactionOperation> out = new ArrayList<>();
    long remaining = targetIoMb;
    for (CompactionOperation op : ordered) {
      remaining -= (long) op.metric(CompactionOperation.TOTAL_IO_MB);
      out.add(op);
      if (remaining <= 0) {
        break;
      }
    }
    return out;
  }
}
