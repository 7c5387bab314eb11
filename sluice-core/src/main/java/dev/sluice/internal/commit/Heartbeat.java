package dev.sluice.internal.commit;

import dev.sluice.api.SluiceException;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.atomic.AtomicReference;

/** The running heartbeat of one instant; {@link #close()} stops it and deletes the heartbeat file. */
public final class Heartbeat implements AutoCloseable {
  private final Heartbeats heartbeats;
  private final String instantTime;
  private final String token;
  private final Timer timer;
  private final AtomicReference<SluiceException> failure = new AtomicReference<>();
  private volatile boolean stopped;

  Heartbeat(Heartbeats heartbeats, String instantTime, String token, long intervalMillis) {
    this.heartbeats = heartbeats;
    this.instantTime = instantTime;
    this.token = token;
    this.timer = new Timer("sluice-heartbeat-" + instantTime, true);
    timer.scheduleAtFixedRate(new TimerTask() {
      @Override
      public void run() {
        if (stopped) {
          return;
        }
        try {
          heartbeats.beat(instantTime, token);
        } catch (SluiceException e) {
          // kept for the writer: it checks its heartbeat before publishing
          failure.compareAndSet(null, e);
        }
      }
    }, intervalMillis, intervalMillis);
  }

  /** The instant this heartbeat is for. */
  public String instantTime() {
    return instantTime;
  }

  /** The first failure to write a heartbeat, if any. */
  public java.util.Optional<SluiceException> failure() {
    return java.util.Optional.ofNullable(failure.get());
  }

  /**
   * Stops beating and leaves the heartbeat file: for a writer that lost the race for its instant time to another
   * process, which beats in the same file (deleting it would make the winner's write look abandoned). The token
   * stays registered as live: the file may still name this process until the winner beats again, and it must not
   * look gone meanwhile.
   */
  public void abandon() {
    stopped = true;
    timer.cancel();
  }

  /** Stops beating and deletes the heartbeat file. */
  @Override
  public void close() {
    if (stopped) {
      return;
    }
    stopped = true;
    timer.cancel();
    // from here a heartbeat file that could not be deleted counts as expired in this process
    Owners.release(token);
    heartbeats.delete(instantTime);
  }
}
