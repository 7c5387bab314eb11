package dev.sluice.internal.repair;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.PositionOutputStream;
import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The folder {@code .hoodie/.repair/<time>/} where a repair keeps a copy of every file it changes, replaces or
 * removes (log files it rewrites, instant files it rebuilds or removes, the table config, leftover data files, stale
 * markers, heartbeats and temp files), under the
 * file's path relative to the table, and where it writes rewritten files before swapping them in. Readers of the table
 * (Sluice's and Hudi's) never look there; delete it once the repaired table is known good.
 */
final class RepairBackup {
  /** The repair folder under {@code .hoodie}. */
  static final String FOLDER = ".repair";

  private final Storage storage;
  private final String basePath;
  private final String folder;

  RepairBackup(Storage storage, String basePath, String time) {
    this.storage = storage;
    this.basePath = basePath;
    this.folder = StoragePaths.join(StoragePaths.join(TableLayout.metaFolder(basePath), FOLDER), time);
  }

  Storage storage() {
    return storage;
  }

  String basePath() {
    return basePath;
  }

  /** The backup folder of this repair. */
  String folder() {
    return folder;
  }

  /** Copies {@code path} (a file of the table) into the backup folder; nothing if it is gone already. */
  void keep(String path) {
    String target = StoragePaths.join(folder, relative(path));
    try {
      if (storage.info(path).isEmpty() || storage.info(target).isPresent()) {
        // gone already, or kept by an earlier step of this repair: the first copy is the original
        return;
      }
      try (InputStream in = storage.openRead(path); OutputStream out = storage.create(target, false)) {
        in.transferTo(out);
      }
    } catch (IOException e) {
      throw Errors.storage("copy into the repair backup folder", path, e);
    }
    KillPoints.reach("repair.backup");
  }

  /** Copies every file under the folder {@code dir} of the table (markers) into the backup folder. */
  void keepTree(String dir) {
    java.util.List<dev.sluice.storage.FileInfo> entries;
    try {
      entries = storage.list(dir);
    } catch (IOException e) {
      throw Errors.storage("list", dir, e);
    }
    for (dev.sluice.storage.FileInfo f : entries) {
      if (f.directory()) {
        keepTree(f.path());
      } else {
        keep(f.path());
      }
    }
  }

  /** A path in the backup folder's work area for a rewritten copy of {@code path}. */
  String workPath(String path) {
    return StoragePaths.join(StoragePaths.join(folder, ".work"), relative(path));
  }

  /** Writes {@code length} bytes of {@code from} starting at {@code offset} to {@code out}. */
  static void copyRange(SeekableInput from, long offset, long length, PositionOutputStream out) throws IOException {
    from.seek(offset);
    byte[] buf = new byte[64 * 1024];
    long left = length;
    while (left > 0) {
      int n = from.read(buf, 0, (int) Math.min(buf.length, left));
      if (n < 0) {
        throw new java.io.EOFException("the file ended " + left + " bytes before offset " + (offset + length));
      }
      out.write(buf, 0, n);
      left -= n;
    }
  }

  private String relative(String path) {
    String prefix = basePath.endsWith("/") ? basePath : basePath + "/";
    return path.startsWith(prefix) ? path.substring(prefix.length()) : StoragePaths.name(path);
  }
}
