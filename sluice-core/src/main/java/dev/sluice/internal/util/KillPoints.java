package dev.sluice.internal.util;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named points in the write path where the crash tests stop the JVM dead ({@link Runtime#halt}, as a SIGKILL would):
 * before and after each data file, marker, log append and timeline transition. Does nothing unless armed, either by
 * the system property {@value #PROPERTY} ({@code name} or {@code name#n} for the n-th time the point is reached) or
 * by {@link #arm}; a disarmed check is one volatile read.
 */
public final class KillPoints {
  /** System property that arms a kill point: {@code name} or {@code name#occurrence}. */
  public static final String PROPERTY = "sluice.killpoint";
  /** Exit status of a JVM stopped at a kill point (what a SIGKILL gives, 128 + 9). */
  public static final int EXIT_STATUS = 137;

  private static volatile Target target = parse(System.getProperty(PROPERTY));
  private static volatile List<String> trace;
  private static final Map<String, AtomicInteger> SEEN = new ConcurrentHashMap<>();

  private KillPoints() {
  }

  private record Target(String name, int occurrence) {
  }

  /** Passes the named point: halts the JVM if it is the armed one, records it if tracing. */
  public static void reach(String name) {
    Target t = target;
    List<String> tr = trace;
    if (t == null && tr == null) {
      return;
    }
    int n = SEEN.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
    if (tr != null) {
      synchronized (tr) {
        tr.add(name + "#" + n);
      }
    }
    if (t != null && t.name.equals(name) && t.occurrence == n) {
      Runtime.getRuntime().halt(EXIT_STATUS);
    }
  }

  /** Arms {@code spec} ({@code name} or {@code name#n}); null disarms. Resets the occurrence counts. */
  public static void arm(String spec) {
    SEEN.clear();
    target = parse(spec);
  }

  /** Starts recording every point reached (as {@code name#n}), resetting the counts. */
  public static void startTrace() {
    SEEN.clear();
    trace = new ArrayList<>();
  }

  /** Stops recording and returns the points reached since {@link #startTrace}, in order. */
  public static List<String> stopTrace() {
    List<String> tr = trace;
    trace = null;
    if (tr == null) {
      return List.of();
    }
    synchronized (tr) {
      return List.copyOf(tr);
    }
  }

  private static Target parse(String spec) {
    if (spec == null || spec.isBlank()) {
      return null;
    }
    int hash = spec.lastIndexOf('#');
    if (hash < 0) {
      return new Target(spec.trim(), 1);
    }
    return new Target(spec.substring(0, hash).trim(), Integer.parseInt(spec.substring(hash + 1).trim()));
  }
}
