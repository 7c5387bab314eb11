package dev.sluice.bench.measure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Sizes of every file under a table folder, to tell what a step wrote: files it created count in full, files it
 * appended to (log files) by their growth. Hadoop's {@code .crc} side files are left out (they are checksums of the
 * data, not data).
 */
public final class DirSnapshot {
  private static final String META_FOLDER = ".hoodie";

  private final Path root;
  private final Map<String, Long> sizes;

  private DirSnapshot(Path root, Map<String, Long> sizes) {
    this.root = root;
    this.sizes = sizes;
  }

  /** The files under {@code root} now (none if it does not exist). */
  public static DirSnapshot of(Path root) {
    Map<String, Long> sizes = new HashMap<>();
    if (Files.isDirectory(root)) {
      try (Stream<Path> files = Files.walk(root)) {
        files.filter(Files::isRegularFile).forEach(f -> {
          String rel = root.relativize(f).toString().replace('\\', '/');
          if (!rel.endsWith(".crc")) {
            sizes.put(rel, f.toFile().length());
          }
        });
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + root, e);
      }
    }
    return new DirSnapshot(root, sizes);
  }

  /** What was written between this snapshot and a new one taken now. */
  public Written writtenSince() {
    DirSnapshot after = of(root);
    long dataBytes = 0;
    long metaBytes = 0;
    int baseFiles = 0;
    int logFiles = 0;
    for (Map.Entry<String, Long> e : after.sizes.entrySet()) {
      long before = sizes.getOrDefault(e.getKey(), -1L);
      if (before == e.getValue()) {
        continue;
      }
      long grown = e.getValue() - Math.max(0, before);
      String rel = e.getKey();
      if (rel.startsWith(META_FOLDER + "/") || rel.equals(META_FOLDER)) {
        metaBytes += Math.max(0, grown);
        continue;
      }
      dataBytes += Math.max(0, grown);
      String name = rel.substring(rel.lastIndexOf('/') + 1);
      if (name.endsWith(".parquet")) {
        baseFiles++;
      } else if (name.contains(".log.")) {
        logFiles++;
      }
    }
    return new Written(dataBytes, metaBytes, baseFiles, logFiles);
  }

  /** Total bytes of the files now listed outside {@code .hoodie}. */
  public long dataBytes() {
    long sum = 0;
    for (Map.Entry<String, Long> e : sizes.entrySet()) {
      if (!e.getKey().startsWith(META_FOLDER + "/")) {
        sum += e.getValue();
      }
    }
    return sum;
  }

  /**
   * What a step wrote.
   *
   * @param dataBytes bytes of data files created or appended (outside {@code .hoodie})
   * @param metaBytes bytes created or appended under {@code .hoodie} (timeline, markers left behind)
   * @param baseFiles Parquet base files created
   * @param logFiles log files created or appended to
   */
  public record Written(long dataBytes, long metaBytes, int baseFiles, int logFiles) {
  }
}
