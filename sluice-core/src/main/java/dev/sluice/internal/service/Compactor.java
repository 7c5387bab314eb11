package dev.sluice.internal.service;

import dev.sluice.internal.compact.Compaction;
import dev.sluice.internal.compact.CompactionResult;
import dev.sluice.internal.error.Errors;
import dev.sluice.api.ProgressListener;
import dev.sluice.api.SluiceException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A background compaction service: one daemon thread that runs pending compactions, oldest first, whenever it is
 * {@linkplain #wake woken} (a writer scheduled one) and every {@code interval}; optionally it also schedules them
 * (only safe while no other process writes, or under optimistic concurrency control). A failed round is reported to
 * the listener and retried in the next round (the failed compaction is rolled back and run again from its plan).
 * {@link #close} lets the running compaction finish, then stops the thread.
 */
public final class Compactor implements AutoCloseable {
  private final Compaction compaction;
  private final Duration interval;
  private final boolean schedule;
  private final Consumer<CompactionResult> onCompleted;
  private final Consumer<SluiceException> onFailure;
  private final ProgressListener progress;
  private final Thread thread;
  private final Object lock = new Object();
  private boolean stopping;
  private long requestedRound;
  private long finishedRound;
  private long completed;
  private SluiceException lastFailure;

  private Compactor(Builder b) {
    this.compaction = b.compaction;
    this.interval = b.interval;
    this.schedule = b.schedule;
    this.onCompleted = b.onCompleted;
    this.onFailure = b.onFailure;
    this.progress = b.progress;
    this.thread = new Thread(this::loop, "sluice-compactor");
    thread.setDaemon(true);
  }

  /** A service over {@code compaction}; configure it, then {@link Builder#start}. */
  public static Builder builder(Compaction compaction) {
    return new Builder(compaction);
  }

  /** Options of a {@link Compactor}. */
  public static final class Builder {
    private final Compaction compaction;
    private Duration interval = Duration.ofSeconds(60);
    private boolean schedule;
    private Consumer<CompactionResult> onCompleted = r -> { };
    private Consumer<SluiceException> onFailure = e -> { };
    private ProgressListener progress = ProgressListener.NONE;

    private Builder(Compaction compaction) {
      this.compaction = Objects.requireNonNull(compaction, "compaction");
    }

    /** How often to look for pending compactions without being woken (default 60 s). */
    public Builder interval(Duration d) {
      if (d.isNegative() || d.isZero()) {
        throw Errors.badRequest("The compactor interval " + d, "it is not positive", "Give a positive interval.");
      }
      this.interval = d;
      return this;
    }

    /** Also schedule a compaction each round when the trigger fires (default false: run what writers schedule). */
    public Builder schedule(boolean v) {
      this.schedule = v;
      return this;
    }

    /** Called on the compactor thread after each completed compaction. */
    public Builder onCompleted(Consumer<CompactionResult> c) {
      this.onCompleted = Objects.requireNonNull(c, "onCompleted");
      return this;
    }

    /** Called on the compactor thread when a round fails. */
    public Builder onFailure(Consumer<SluiceException> c) {
      this.onFailure = Objects.requireNonNull(c, "onFailure");
      return this;
    }

    /** Receives the progress of each compaction it runs, on the compactor thread (default: none). */
    public Builder progress(ProgressListener p) {
      this.progress = Objects.requireNonNull(p, "progress");
      return this;
    }

    /** Starts the service thread. */
    public Compactor start() {
      Compactor c = new Compactor(this);
      c.thread.start();
      return c;
    }
  }

  /** Asks for a round now (a compaction was just scheduled). */
  public void wake() {
    synchronized (lock) {
      requestedRound++;
      lock.notifyAll();
    }
  }

  /**
   * Waits until a round that started after this call has finished, so every compaction pending now has been run
   * (or has failed; see {@link #lastFailure}). Returns false if the service stopped or {@code timeout} passed first.
   */
  public boolean drain(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      requestedRound++;
      long target = requestedRound;
      lock.notifyAll();
      while (finishedRound < target && !stopping) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          lock.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return finishedRound >= target;
    }
  }

  /** Compactions this service completed. */
  public long completed() {
    synchronized (lock) {
      return completed;
    }
  }

  /** The failure of the latest round, if it failed. */
  public Optional<SluiceException> lastFailure() {
    synchronized (lock) {
      return Optional.ofNullable(lastFailure);
    }
  }

  /** True while the service thread runs. */
  public boolean isRunning() {
    return thread.isAlive();
  }

  private void loop() {
    while (true) {
      long round;
      synchronized (lock) {
        if (stopping) {
          return;
        }
        if (requestedRound <= finishedRound) {
          try {
            lock.wait(interval.toMillis());
          } catch (InterruptedException e) {
            return;
          }
          if (stopping) {
            return;
          }
        }
        round = requestedRound;
      }
      SluiceException failure = runRound();
      synchronized (lock) {
        lastFailure = failure;
        finishedRound = Math.max(finishedRound, round);
        lock.notifyAll();
      }
    }
  }

  private SluiceException runRound() {
    try {
      if (schedule) {
        compaction.schedule();
      }
      List<String> pending = new ArrayList<>(compaction.pending());
      for (String t : pending) {
        synchronized (lock) {
          if (stopping) {
            return null;
          }
        }
        CompactionResult r = compaction.run(t, progress);
        synchronized (lock) {
          completed++;
        }
        onCompleted.accept(r);
      }
      return null;
    } catch (RuntimeException e) {
      SluiceException se = e instanceof SluiceException x ? x : Errors.internal("compaction failed: " + e, e);
      onFailure.accept(se);
      return se;
    }
  }

  /** Stops the service: the compaction running now finishes, later ones are left pending; waits for the thread. */
  @Override
  public void close() {
    synchronized (lock) {
      stopping = true;
      lock.notifyAll();
    }
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
