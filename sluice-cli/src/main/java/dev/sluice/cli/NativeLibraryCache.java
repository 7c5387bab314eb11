package dev.sluice.cli;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;
import java.util.jar.JarEntry;
import org.xerial.snappy.OSInfo;

/**
 * Keeps snappy-java's native library in the launcher's cache folder. Left to itself, snappy-java copies the library
 * out of its jar into a new temporary file at every start, compares the copy with the jar's entry byte by byte, loads
 * it and deletes it at exit: about 40 ms of every cold command that reads or writes Parquet (a JVM that loads the
 * library took 49-54 ms for it, 9-15 ms from a fixed path). The first command copies the library once into
 * {@code DIR/snappy-<platform>-<crc>/} (the jar entry's CRC, so another snappy-java version gets a folder of its
 * own); every command then points snappy-java at that copy through its own settings
 * ({@code org.xerial.snappy.lib.path} and {@code org.xerial.snappy.lib.name}).
 *
 * <p>{@code bin/sluice} passes the folder as {@value #DIR_PROPERTY} when it uses its cache; without it, or when the
 * user set snappy-java's settings, nothing changes. Anything that goes wrong here (no such entry for this
 * platform, a folder that cannot be written) leaves snappy-java to its own way, which works as before.
 */
final class NativeLibraryCache {
  /** The system property that names the cache folder. */
  static final String DIR_PROPERTY = "sluice.native.dir";
  static final String LIB_PATH = "org.xerial.snappy.lib.path";
  static final String LIB_NAME = "org.xerial.snappy.lib.name";

  private NativeLibraryCache() {
  }

  /** Points snappy-java at its library in {@code dir}, copying it there first if needed. */
  static void useForSnappy(Optional<String> dir) {
    if (dir.isEmpty() || dir.get().isBlank() || System.getProperty(LIB_PATH) != null
        || System.getProperty(LIB_NAME) != null || Boolean.getBoolean("org.xerial.snappy.use.systemlib")) {
      return;
    }
    String platform = OSInfo.getNativeLibFolderPathForCurrentOS();
    String name = System.mapLibraryName("snappyjava");
    URL url = OSInfo.class.getResource("/org/xerial/snappy/native/" + platform + "/" + name);
    if (url == null) {
      return;
    }
    try {
      URLConnection c = url.openConnection();
      if (!(c instanceof JarURLConnection jar)) {
        return;
      }
      JarEntry entry = jar.getJarEntry();
      Path folder = Path.of(dir.get(), "snappy-" + platform.replace('/', '-').toLowerCase(Locale.ROOT) + "-"
          + Long.toHexString(entry.getCrc()));
      Path lib = folder.resolve(name);
      if (!Files.isRegularFile(lib) || Files.size(lib) != entry.getSize()) {
        copy(jar, folder, lib);
      }
      System.setProperty(LIB_PATH, folder.toString());
      System.setProperty(LIB_NAME, name);
    } catch (IOException | InvalidPathException | SecurityException e) {
      // no copy in the cache (a read-only folder, a full disk): snappy-java copies the library to a temporary file
      // as it always did, so the command runs as before, only without the saving
    }
  }

  /** Copies the jar's entry into a private file, then moves it into place whole: a reader never sees half of it. */
  private static void copy(JarURLConnection jar, Path folder, Path lib) throws IOException {
    Files.createDirectories(folder);
    Path tmp = Files.createTempFile(folder, lib.getFileName().toString(), ".tmp");
    try {
      try (InputStream in = jar.getInputStream()) {
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
      }
      try {
        Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        // the same folder, so this file system renames in place or not at all: replace it the plain way
        Files.move(tmp, lib, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
