package dev.sluice.bench.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * CPU time of the whole worker process: every thread, the collector's and the JIT compiler's included. On a shared
 * 2-core machine a step's wall clock stretches with whatever else runs, while the CPU time the step needed stretches
 * much less, so small differences (the metadata table's cost per commit, how an upsert grows with the table) are read
 * from it beside the wall clock.
 */
public final class CpuClock {
  private CpuClock() {
  }

  /** Process CPU nanoseconds so far; 0 on a JVM that does not tell (then every difference reads 0). */
  public static long nanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? Math.max(0, sun.getProcessCpuTime()) : 0L;
  }
}
