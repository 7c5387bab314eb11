package dev.sluice.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a JFR recording's CPU samples went: the top methods by self time (the sampled frame), by total time (any
 * frame of the stack), and by package; plus allocation by class when the recording has allocation samples.
 *
 * <p>Usage: {@code JfrTop [--top N] FILE.jfr...} (the driver's {@code --jfr DIR} writes one file per timed span).
 */
public final class JfrTop {
  private final Map<String, Long> self = new HashMap<>();
  private final Map<String, Long> total = new HashMap<>();
  private final Map<String, Long> packages = new HashMap<>();
  private final Map<String, Long> allocations = new HashMap<>();
  private long samples;
  private long allocated;

  private JfrTop() {
  }

  /**
   * Prints the summary of the given recordings.
   *
   * @param args {@code [--top N] FILE...}
   */
  public static void main(String[] args) {
    int top = 25;
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--top") && i + 1 < args.length) {
        top = Integer.parseInt(args[++i]);
      } else {
        files.add(Path.of(args[i]));
      }
    }
    if (files.isEmpty()) {
      System.err.println("usage: JfrTop [--top N] FILE.jfr...");
      System.exit(2);
    }
    JfrTop t = new JfrTop();
    for (Path f : files) {
      t.read(f);
    }
    t.print(System.out, top);
  }

  private void read(Path file) {
    try (RecordingFile in = new RecordingFile(file)) {
      while (in.hasMoreEvents()) {
        RecordedEvent e = in.readEvent();
        String type = e.getEventType().getName();
        if (type.equals("jdk.ExecutionSample")) {
          sample(e.getStackTrace());
        } else if (type.equals("jdk.ObjectAllocationSample")) {
          long weight = e.getLong("weight");
          allocated += weight;
          allocations.merge(e.getClass("objectClass").getName() + " <- " + firstUserFrame(e.getStackTrace()), weight,
              Long::sum);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private void sample(RecordedStackTrace stack) {
    if (stack == null || stack.getFrames().isEmpty()) {
      return;
    }
    samples++;
    List<RecordedFrame> frames = stack.getFrames();
    self.merge(name(frames.get(0)), 1L, Long::sum);
    packages.merge(pkg(frames.get(0)), 1L, Long::sum);
    Set<String> seen = new HashSet<>();
    for (RecordedFrame f : frames) {
      String n = name(f);
      if (seen.add(n)) {
        total.merge(n, 1L, Long::sum);
      }
    }
  }

  private static String firstUserFrame(RecordedStackTrace stack) {
    if (stack == null) {
      return "?";
    }
    for (RecordedFrame f : stack.getFrames()) {
      String n = name(f);
      if (!n.startsWith("java.") && !n.startsWith("jdk.")) {
        return n;
      }
    }
    return stack.getFrames().isEmpty() ? "?" : name(stack.getFrames().get(0));
  }

  private static String name(RecordedFrame f) {
    RecordedMethod m = f.getMethod();
    return m == null ? "?" : m.getType().getName() + "." + m.getName();
  }

  private static String pkg(RecordedFrame f) {
    RecordedMethod m = f.getMethod();
    if (m == null) {
      return "?";
    }
    String type = m.getType().getName();
    int dot = type.lastIndexOf('.');
    return dot < 0 ? "" : type.substring(0, dot);
  }

  private void print(PrintStream out, int top) {
    out.printf(Locale.ROOT, "%d CPU samples%n", samples);
    section(out, "self (sampled frame)", self, samples, top);
    section(out, "total (on the stack)", total, samples, top);
    section(out, "self by package", packages, samples, top);
    if (allocated > 0) {
      section(out, "allocation (sampled bytes) by class <- first non-JDK frame", allocations, allocated, top);
    }
  }

  private static void section(PrintStream out, String title, Map<String, Long> counts, long all, int top) {
    out.println();
    out.println(title + ":");
    counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top)
        .forEach(e -> out.printf(Locale.ROOT, "  %5.1f%%  %s%n", 100.0 * e.getValue() / Math.max(1, all), e.getKey()));
  }
}
