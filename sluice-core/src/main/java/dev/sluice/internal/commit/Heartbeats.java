package dev.sluice.internal.commit;

import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.PositionOutputStream;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.api.SluiceException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.Optional;
import java.util.UUID;

/**
 * Writer heartbeats ({@code HoodieHeartbeatClient}): while a write runs, in every concurrency mode, its writer
 * re-creates the file {@code .hoodie/.heartbeat/<instant>} every interval; the file's modification time is the last
 * heartbeat (all Hudi reads). An instant whose heartbeat is older than interval × tolerable misses (or missing)
 * belongs to a writer that is gone, and may be rolled back by others.
 *
 * <p>Sluice also writes who beats into the file ({@link Owners}; Hudi ignores the content and writes none): a
 * heartbeat whose writer is a process on this host that no longer runs, or a write of this process that ended
 * without deleting it, counts as expired at once, so the next write after a crash rolls the crashed one back
 * without waiting out the expiry.
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
    String token = Owners.register(UUID.randomUUID().toString());
    try {
      beat(instantTime, token);
    } catch (SluiceException e) {
      Owners.release(token);
      throw e;
    }
    return new Heartbeat(this, instantTime, token, intervalMillis);
  }

  /**
   * Writes the heartbeat file of {@code instantTime} (its modification time is the heartbeat), saying who beats:
   * the holder of {@code token} in this process.
   */
  void beat(String instantTime, String token) {
    String path = pathOf(instantTime);
    try (PositionOutputStream out = storage.create(path, true)) {
      out.write(Owners.describe(token).getBytes(StandardCharsets.UTF_8));
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

  /**
   * True if the writer of {@code instantTime} missed too many heartbeats, never wrote one, or is known to be gone
   * (a process on this host that no longer runs; a write of this process that ended).
   */
  public boolean isExpired(String instantTime) {
    return liveOwner(instantTime).isEmpty();
  }

  /**
   * The writer of {@code instantTime} if its heartbeat is live (see {@link #isExpired}): who beats, as far as the
   * file says (host and pid for Sluice's heartbeats; Hudi's are empty), and how long ago it last beat.
   */
  public Optional<String> liveOwner(String instantTime) {
    Optional<Long> last = lastBeat(instantTime);
    long age = System.currentTimeMillis() - last.orElse(0L);
    if (last.isEmpty() || age > intervalMillis * tolerableMisses) {
      return Optional.empty();
    }
    String content = readOwner(instantTime);
    if (!content.isEmpty() && Owners.isGone(content)) {
      return Optional.empty();
    }
    String who = content.isEmpty() ? "a writer" : Owners.brief(content);
    return Optional.of(who + ", last heartbeat " + age + " ms ago in " + pathOf(instantTime));
  }

  /** The heartbeat period after which a silent writer counts as gone, in ms. */
  public long expiryMillis() {
    return intervalMillis * tolerableMisses;
  }

  private String readOwner(String instantTime) {
    String path = pathOf(instantTime);
    try (InputStream in = storage.openRead(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (NoSuchFileException | FileNotFoundException e) {
      // deleted between the check and the read: its writer finished
      return "";
    } catch (IOException e) {
      throw Errors.storage("read the heartbeat", path, e);
    }
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
