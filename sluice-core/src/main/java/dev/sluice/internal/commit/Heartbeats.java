package dev.sluice.internal.commit;

import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.PositionOutputStream;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.table.TableLayout;
import java.io.IOException;
import java.util.Optional;

/**
 * Writer heartbeats ({@code HoodieHeartbeatClient}): while a write runs under the LAZY failed-writes policy, its
 * writer re-creates the empty file {@code .hoodie/.heartbeat/<instant>} every interval; the file's modification time
 * is the last heartbeat. An instant whose heartbeat is older than interval × tolerable misses (or missing) belongs to
 * a writer that is gone, and may be rolled back by others.
 */
public final class Heartbeats {
  private final Storage storage;
  private final String folder;
  private final long intervalMillis;
  private final int tolerableMisses;

  /** Heartbeats with Hudi's defaults (60 s interval, 2 misses). */
  public Heartbeats(Storage storage, String basePath) {
    this(storage, basePath, ConfigKeys.HEARTBEAT_INTERVAL_MS.defaultValue(), ConfigKeys.HEARTBEAT_TOLERABLE_MISSES.defaultValue());
  }

  /** Heartbeats with an interval and the number of missed beats after which a writer counts as gone. */
  public Heartbeats(Storage storage, String basePath, long intervalMillis, int tolerableMisses) {
    this.storage = storage;
    this.folder = TableLayout.heartbeatFolder(basePath);
    this.intervalMillis = intervalMillis;
    this.tolerableMisses = tolerableMisses;
  }

  /** Heartbeats configured by {@code hoodie.client.heartbeat.*}. */
  public static Heartbeats of(Storage storage, String basePath, CommitSettings settings) {
    long interval = settings.heartbeatIntervalMillis();
    if (interval < 1) {
      throw Errors.badConfig(ConfigKeys.HEARTBEAT_INTERVAL_MS.name(), Long.toString(interval), "a positive number of ms");
    }
    return new Heartbeats(storage, basePath, interval, settings.heartbeatTolerableMisses());
  }

  /** The heartbeat file of an instant. */
  public String pathOf(String instantTime) {
    return StoragePaths.join(folder, instantTime);
  }

  /** Beats once now and then every interval on a daemon thread until the returned heartbeat is stopped. */
  public Heartbeat start(String instantTime) {
    beat(instantTime);
    return new Heartbeat(this, instantTime, intervalMillis);
  }

  /** Writes the heartbeat file of {@code instantTime} (its modification time is the heartbeat). */
  void beat(String instantTime) {
    String path = pathOf(instantTime);
    try (PositionOutputStream out = storage.create(path, true)) {
      out.flush();
    } catch (IOException e) {
      throw Errors.storage("write the heartbeat", path, e);
    }
  }

  /** The time of the last heartbeat of {@code instantTime}, if it has a heartbeat file. */
  public Optional<Long> lastBeat(String instantTime) {
    String path = pathOf(instantTime);
    try {
      return storage.info(path).map(FileInfo::modificationTime);
    } catch (IOException e) {
      throw Errors.storage("read the heartbeat", path, e);
    }
  }

  /** True if the writer of {@code instantTime} missed too many heartbeats, or never wrote one. */
  public boolean isExpired(String instantTime) {
    long last = lastBeat(instantTime).orElse(0L);
    return System.currentTimeMillis() - last > intervalMillis * tolerableMisses;
  }

  /** Deletes the heartbeat file of {@code instantTime} (done with that instant). */
  public void delete(String instantTime) {
    String path = pathOf(instantTime);
    try {
      storage.delete(path);
    } catch (IOException e) {
      throw Errors.storage("delete the heartbeat", path, e);
    }
  }
}
