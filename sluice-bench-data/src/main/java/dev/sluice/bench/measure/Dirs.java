package dev.sluice.bench.measure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Copying and deleting table folders. */
public final class Dirs {
  private Dirs() {
  }

  /** Copies the tree {@code from} to {@code to} (which must not exist), keeping modification times. */
  public static void copy(Path from, Path to) {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.collect(Collectors.toList())) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + from + " to " + to, e);
    }
  }

  /** Deletes {@code dir} and everything under it, if it exists. */
  public static void delete(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      List<Path> all = paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
      for (Path p : all) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
