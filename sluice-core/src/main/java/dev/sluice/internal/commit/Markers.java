package dev.sluice.internal.commit;

import dev.sluice.internal.error.Errors;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.util.KillPoints;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The markers of one instant under {@code .hoodie/.temp/<instant>/} ({@code DirectWriteMarkers}): an empty file
 * {@code <partition>/<dataFile>.marker.<IOType>} is created before each data file is written, so that a failed
 * write can be rolled back by deleting exactly the files it made. Reading also understands the batched files
 * ({@code MARKERS0}, {@code MARKERS1}, ...) that Hudi's timeline-server markers write.
 */
public final class Markers {
  /** Infix between the data file name and the IO type. */
  public static final String MARKER_EXTENSION = ".marker";
  private static final String TYPE_FILE = "MARKERS.type";
  private static final Pattern BATCH_FILE = Pattern.compile("MARKERS\\d+");

  private final Storage storage;
  private final String basePath;
  private final String markerDir;

  /** Markers of {@code instantTime} in the table at {@code basePath}; does no I/O. */
  public Markers(Storage storage, String basePath, String instantTime) {
    this.storage = storage;
    this.basePath = basePath;
    this.markerDir = StoragePaths.join(TableLayout.tempFolder(basePath), instantTime);
  }

  /** The marker folder of the instant. */
  public String directory() {
    return markerDir;
  }

  /** The marker file's name for a data file. */
  public static String markerName(String fileName, IOType type) {
    return fileName + MARKER_EXTENSION + "." + type.name();
  }

  /** Creates the marker of a data file about to be written; creating the same marker twice is harmless. */
  public void create(String partitionPath, String fileName, IOType type) {
    String path = StoragePaths.join(StoragePaths.join(markerDir, partitionPath), markerName(fileName, type));
    KillPoints.reach("marker.create.before");
    try (OutputStream out = storage.create(path, false)) {
      out.flush();
      KillPoints.reach("marker.create.after");
    } catch (FileAlreadyExistsException e) {
      // the same file is being written again (a retried task): the marker already says what it must
      return;
    } catch (IOException e) {
      throw Errors.storage("create the marker", path, e);
    }
  }

  /** All markers of the instant, sorted by path; empty if there are none. */
  public List<Marker> list() {
    List<Marker> out = new ArrayList<>();
    Deque<String> todo = new ArrayDeque<>();
    todo.add("");
    String current = markerDir;
    try {
      while (!todo.isEmpty()) {
        String rel = todo.poll();
        current = StoragePaths.join(markerDir, rel);
        for (FileInfo f : storage.list(current)) {
          String name = f.name();
          String childRel = rel.isEmpty() ? name : rel + "/" + name;
          if (f.directory()) {
            todo.add(childRel);
          } else if (rel.isEmpty() && BATCH_FILE.matcher(name).matches()) {
            readBatch(f.path(), out);
          } else if (!name.equals(TYPE_FILE)) {
            parse(childRel).ifPresent(out::add);
          }
        }
      }
    } catch (IOException e) {
      throw Errors.storage("list markers in", current, e);
    }
    out.sort(Comparator.comparing(Marker::relativeFilePath).thenComparing(Marker::ioType));
    return out;
  }

  private void readBatch(String path, List<Marker> out) throws IOException {
    try (InputStream in = storage.openRead(path)) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      for (String line : text.split("\n")) {
        String l = line.trim();
        if (!l.isEmpty()) {
          parse(l).ifPresent(out::add);
        }
      }
    }
  }

  /** Parses {@code <partition>/<file>.marker.<TYPE>} (relative to the marker folder). */
  static Optional<Marker> parse(String relative) {
    int slash = relative.lastIndexOf('/');
    String partition = slash < 0 ? "" : relative.substring(0, slash);
    String name = slash < 0 ? relative : relative.substring(slash + 1);
    int at = name.lastIndexOf(MARKER_EXTENSION + ".");
    if (at <= 0) {
      return Optional.empty();
    }
    String type = name.substring(at + MARKER_EXTENSION.length() + 1);
    for (IOType t : IOType.values()) {
      if (t.name().equals(type)) {
        return Optional.of(new Marker(partition, name.substring(0, at), t));
      }
    }
    return Optional.empty();
  }

  /**
   * Deletes the data files this instant's markers list as created or merged whose relative paths are not in
   * {@code written} (the paths of the write stats about to be published), and returns their relative paths. They
   * are files of task attempts that failed or lost to a retry or speculative copy (Hudi's reconcile against
   * markers): left in place they would join the table when the instant completes. Files of append markers (version
   * 6 log files) are shared with earlier instants and never deleted here; a listed file that was never created is
   * skipped.
   */
  public List<String> reconcile(Set<String> written) {
    List<String> deleted = new ArrayList<>();
    for (Marker m : list()) {
      String relative = m.relativeFilePath();
      if (m.ioType() == IOType.APPEND || written.contains(relative)) {
        continue;
      }
      String path = StoragePaths.join(basePath, relative);
      try {
        if (storage.delete(path)) {
          deleted.add(relative);
        }
      } catch (IOException e) {
        throw Errors.storage("delete the file of a failed task attempt", path, e);
      }
    }
    return deleted;
  }

  /** Deletes the instant's marker folder (after a commit or a rollback). */
  public void deleteAll() {
    KillPoints.reach("marker.delete-all");
    try {
      storage.deleteRecursively(markerDir);
    } catch (IOException e) {
      throw Errors.storage("delete the markers", markerDir, e);
    }
  }

  /** True if the instant has a marker folder. */
  public boolean exists() {
    try {
      return storage.info(markerDir).isPresent();
    } catch (IOException e) {
      throw Errors.storage("check for markers", markerDir, e);
    }
  }
}
