package dev.sluice.cli;

import dev.sluice.api.Progress;
import dev.sluice.api.ProgressListener;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Shows the engine's {@link Progress} reports on stderr, never on stdout (a query's rows stay clean): on a terminal a
 * bar redrawn in place with a carriage return at most ten times a second, with counts, rate and, when the step knows
 * its total, the share done and an estimate of the time left, and a final line per step; when stderr is not a
 * terminal (a log file, a pipe, cron) a line every interval while a step runs and a closing line for the steps that
 * printed one; with {@code --quiet} nothing. A ticker thread redraws even when the engine reports nothing for a while
 * (one index lookup of a whole batch), so the clock and the estimate keep moving.
 */
final class ProgressDisplay implements ProgressListener, AutoCloseable {
  /** How the reports are shown. */
  enum Mode {
    /** A live bar on a terminal. */
    BAR,
    /** Periodic lines, stderr not being a terminal. */
    LINES,
    /** Nothing ({@code --quiet}). */
    OFF
  }

  private static final long REDRAW_NANOS = 100_000_000L;
  private static final int BAR_WIDTH = 20;

  private final Mode mode;
  private final PrintWriter err;
  private final ScheduledExecutorService ticker;
  private Progress current;
  private long stepStart;
  private boolean linePrinted;
  private int drawnWidth;
  private long lastDraw;

  private ProgressDisplay(Mode mode, PrintWriter err, long intervalNanos) {
    this.mode = mode;
    this.err = err;
    if (mode == Mode.OFF) {
      ticker = null;
      return;
    }
    ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "sluice-progress");
      t.setDaemon(true);
      return t;
    });
    long period = mode == Mode.BAR ? REDRAW_NANOS : intervalNanos;
    // with a fixed delay a stalled machine gets one late redraw, not a burst of catch-up ones
    ticker.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.NANOSECONDS);
  }

  /**
   * The display the options and the terminal call for. {@code rowsOnStdout}: the command prints rows as it reads them
   * (a query), so a bar is drawn only when stdout is not the terminal too (it would tear the rows apart).
   */
  static ProgressDisplay of(ProgressOptions options, PrintWriter err, boolean rowsOnStdout) {
    long interval = options.intervalNanos();
    Mode mode = options.quiet ? Mode.OFF : !isTerminal(2) ? Mode.LINES
        : rowsOnStdout && isTerminal(1) ? Mode.OFF : Mode.BAR;
    return new ProgressDisplay(mode, err, interval);
  }

  /** The mode chosen. */
  Mode mode() {
    return mode;
  }

  /**
   * Whether file descriptor {@code fd} (1 stdout, 2 stderr) is a terminal: on Linux from what {@code /proc/self/fd}
   * links it to (Java has no isatty; {@link System#console()} asks about stdin and stdout only), elsewhere
   * {@link System#console()}.
   */
  static boolean isTerminal(int fd) {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      // no /proc (macOS, Windows): the JDK's own test of the terminal
      return System.console() != null;
    }
  }

  @Override
  public void onProgress(Progress p) {
    if (mode == Mode.OFF) {
      return;
    }
    synchronized (this) {
      long now = System.nanoTime();
      if (current == null || current.step() != p.step() || current.finished()) {
        stepStart = now;
        linePrinted = false;
        lastDraw = 0;
      }
      current = p;
      if (p.finished()) {
        endStep(p, now);
      } else if (mode == Mode.BAR && now - lastDraw >= REDRAW_NANOS) {
        draw(bar(p, now));
        lastDraw = now;
      }
    }
  }

  private synchronized void tick() {
    if (current == null || current.finished()) {
      return;
    }
    long now = System.nanoTime();
    if (mode == Mode.BAR) {
      draw(bar(current, now));
      lastDraw = now;
    } else {
      err.println("progress: " + running(current, now));
      err.flush();
      linePrinted = true;
    }
  }

  private void endStep(Progress p, long now) {
    String done = finished(p, now);
    if (mode == Mode.BAR) {
      draw(done);
      err.print('\n');
      err.flush();
      drawnWidth = 0;
    } else if (linePrinted) {
      err.println("progress: " + done);
      err.flush();
    }
  }

  /** Redraws the bar's line: back to its start, the text, spaces over what is left of a longer earlier text. */
  private void draw(String text) {
    StringBuilder b = new StringBuilder(text.length() + drawnWidth + 1).append('\r').append(text);
    for (int i = text.length(); i < drawnWidth; i++) {
      b.append(' ');
    }
    drawnWidth = text.length();
    err.print(b);
    err.flush();
  }

  private String bar(Progress p, long now) {
    double secs = seconds(now);
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-19s ", p.step().label()));
    if (p.total().isPresent()) {
      long total = p.total().getAsLong();
      double share = total == 0 ? 1 : Math.min(1, (double) p.done() / total);
      // rounded down: a full bar and 100% only when every unit is done
      int filled = (int) (share * BAR_WIDTH);
      b.append('[').append("#".repeat(filled)).append(".".repeat(BAR_WIDTH - filled)).append(']')
          .append(String.format(Locale.ROOT, " %3d%% ", (int) (share * 100)));
      b.append(String.format(Locale.ROOT, "%,d/%,d %s", p.done(), total, p.unit()));
    } else {
      b.append(String.format(Locale.ROOT, "%,d %s", p.done(), p.unit()));
    }
    b.append(records(p, ", ")).append("  ").append(rate(p, secs)).append("  ").append(eta(p, secs));
    return b.toString();
  }

  private String running(Progress p, long now) {
    double secs = seconds(now);
    StringBuilder b = new StringBuilder(p.step().label()).append(' ');
    if (p.total().isPresent()) {
      long total = p.total().getAsLong();
      b.append(String.format(Locale.ROOT, "%,d/%,d %s (%d%%)", p.done(), total, p.unit(),
          total == 0 ? 100 : 100 * p.done() / total));
    } else {
      b.append(String.format(Locale.ROOT, "%,d %s", p.done(), p.unit()));
    }
    return b.append(records(p, ", ")).append(", ").append(rate(p, secs)).append(", ").append(eta(p, secs)).toString();
  }

  private String finished(Progress p, long now) {
    double secs = seconds(now);
    String count = p.total().isPresent() && p.total().getAsLong() != p.done()
        ? String.format(Locale.ROOT, "%,d of %,d %s", p.done(), p.total().getAsLong(), p.unit())
        : String.format(Locale.ROOT, "%,d %s", p.done(), p.unit());
    return String.format(Locale.ROOT, "%s: %s%s in %s (%s)", p.step().label(), count, records(p, ", "), clock(secs),
        rate(p, secs));
  }

  /**
   * The records counted inside a step's larger units (a compaction's file groups, a query's file slices), which move
   * while one long unit is done; nothing for the other steps.
   */
  private static String records(Progress p, String before) {
    return countsRecords(p) ? String.format(Locale.ROOT, "%s%,d records", before, p.records()) : "";
  }

  private static boolean countsRecords(Progress p) {
    return p.step() == Progress.Step.COMPACTION || p.step() == Progress.Step.SCAN;
  }

  /** The rate of the records when the step counts them inside its units, else of its units. */
  private static String rate(Progress p, double secs) {
    return countsRecords(p) ? rate(p.records(), secs).replace("/s", " records/s") : rate(p.done(), secs);
  }

  private double seconds(long now) {
    return Math.max(0, now - stepStart) / 1e9;
  }

  private static String rate(long done, double secs) {
    if (secs < 0.001) {
      return "-/s";
    }
    double r = done / secs;
    return r >= 100 ? String.format(Locale.ROOT, "%,.0f/s", r) : String.format(Locale.ROOT, "%.1f/s", r);
  }

  /** The estimated time left when the total is known and some work is done, else the time so far. */
  private static String eta(Progress p, double secs) {
    if (p.total().isPresent() && p.done() > 0) {
      double left = secs * (p.total().getAsLong() - p.done()) / p.done();
      return "ETA " + clock(Math.max(0, left));
    }
    return "elapsed " + clock(secs);
  }

  private static String clock(double secs) {
    if (secs < 60) {
      return String.format(Locale.ROOT, "%.1f s", secs);
    }
    long s = Math.round(secs);
    return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }

  /** Stops the ticker; a bar left mid-step (the command failed) gets its line ended so that the error starts anew. */
  @Override
  public void close() {
    if (ticker == null) {
      return;
    }
    ticker.shutdownNow();
    synchronized (this) {
      if (mode == Mode.BAR && drawnWidth > 0) {
        err.print('\n');
        err.flush();
        drawnWidth = 0;
      }
      current = null;
    }
  }
}
