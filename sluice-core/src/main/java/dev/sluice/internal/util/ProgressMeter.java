package dev.sluice.internal.util;

import dev.sluice.api.Progress;
import dev.sluice.api.ProgressListener;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the units of one long step and reports them to a {@link ProgressListener}: at the start, then when a count
 * crosses a multiple of the stride and at least {@link #TICK_NANOS} passed since the last report, and at the end.
 * Safe from several threads: the count is one atomic, reports are serialized and never go backwards. A meter of
 * {@link ProgressListener#NONE} ({@link #OFF}) does nothing, so the write and scan paths pay one field check when no
 * one listens.
 */
public final class ProgressMeter {
  /** The shortest time between two reports of a step (its first and last excepted). */
  static final long TICK_NANOS = 100_000_000L;
  /** Records counted between two looks at the clock. */
  public static final long RECORD_STRIDE = 1024;

  /** The meter that counts nothing and reports nothing. */
  public static final ProgressMeter OFF = new ProgressMeter(null, Progress.Step.READ_INPUT, -1, 1);

  private final ProgressListener listener;
  private final Progress.Step step;
  private final long total;
  private final long stride;
  private final AtomicLong done = new AtomicLong();
  private final AtomicLong records = new AtomicLong();
  private long lastReported = -1;
  private long lastRecords;
  private long lastNanos;
  private boolean finished;

  private ProgressMeter(ProgressListener listener, Progress.Step step, long total, long stride) {
    this.listener = listener;
    this.step = step;
    this.total = total;
    this.stride = stride;
  }

  /**
   * A meter of {@code step} reporting to {@code listener} ({@link #OFF} for {@link ProgressListener#NONE}) that has
   * reported its start: {@code total} units to do, or -1 if not known; the clock is read every {@code stride} units.
   */
  public static ProgressMeter start(ProgressListener listener, Progress.Step step, long total, long stride) {
    if (listener == null || listener == ProgressListener.NONE) {
      return OFF;
    }
    ProgressMeter m = new ProgressMeter(listener, step, total, Math.max(1, stride));
    m.report(false);
    return m;
  }

  /** Whether anyone listens (callers may skip counting work of their own). */
  public boolean on() {
    return listener != null;
  }

  /** Counts {@code n} more units done; reports if a stride boundary was crossed and the tick has passed. */
  public void advance(long n) {
    if (listener == null || n <= 0) {
      return;
    }
    long now = done.addAndGet(n);
    if ((now - n) / stride != now / stride) {
      tick();
    }
  }

  private void tick() {
    synchronized (this) {
      if (!finished && System.nanoTime() - lastNanos >= TICK_NANOS) {
        report(false);
      }
    }
  }

  /**
   * Counts {@code n} more records handled inside the step's units (a step counted in file groups or slices, see
   * {@link Progress#records()}); reports as {@link #advance} does, on multiples of {@link #RECORD_STRIDE} records.
   */
  public void advanceRecords(long n) {
    if (listener == null || n <= 0) {
      return;
    }
    long now = records.addAndGet(n);
    if ((now - n) / RECORD_STRIDE != now / RECORD_STRIDE) {
      tick();
    }
  }

  /**
   * A counter of records for one thread that hands them to this meter a stride at a time ({@link #flush()} the rest),
   * so that a loop over a million records touches the shared count a thousand times, not a million.
   */
  public Tally tally() {
    return new Tally(this);
  }

  /** Records counted on one thread, handed to the meter in strides; see {@link #tally()}. */
  public static final class Tally {
    private final ProgressMeter meter;
    private long pending;

    private Tally(ProgressMeter meter) {
      this.meter = meter;
    }

    /** One more record. */
    public void add() {
      if (++pending == RECORD_STRIDE) {
        flush();
      }
    }

    /** Hands the records counted since the last flush to the meter. */
    public void flush() {
      long n = pending;
      pending = 0;
      meter.advanceRecords(n);
    }
  }

  /** Reports the step's end with the count so far (once; later calls do nothing). */
  public void finish() {
    if (listener == null) {
      return;
    }
    synchronized (this) {
      if (!finished) {
        finished = true;
        report(true);
      }
    }
  }

  /** The units counted so far. */
  public long done() {
    return done.get();
  }

  private synchronized void report(boolean last) {
    long d = Math.max(done.get(), lastReported);
    lastReported = d;
    long r = Math.max(records.get(), lastRecords);
    lastRecords = r;
    lastNanos = System.nanoTime();
    listener.onProgress(new Progress(step, d, total < 0 ? OptionalLong.empty() : OptionalLong.of(total), last, r));
  }
}
