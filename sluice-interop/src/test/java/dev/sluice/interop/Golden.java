package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The golden tables Hudi wrote (sluice-core test resources) and their expected reads. */
final class Golden {

  private Golden() {
  }

  /** The folder of golden tables. */
  static Path dir() {
    Path golden = Path.of(System.getProperty("sluice.golden.dir", "../sluice-core/src/test/resources/golden"));
    assertTrue(Files.isDirectory(golden), "golden tables not found at " + golden.toAbsolutePath());
    return golden;
  }

  /** The lines of {@code <name>.expected.jsonl}: Hudi's snapshot read of the table. */
  static List<String> expectedLines(String name) {
    try {
      return Files.readAllLines(dir().resolve(name + ".expected.jsonl"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Copies golden table {@code name} to {@code to}, regular files only: empty folders dropped as in a git checkout. */
  static Path copy(String name, Path to) {
    return copyFilesOnly(dir().resolve(name), to);
  }

  /** Copies regular files only. */
  static Path copyFilesOnly(Path from, Path to) {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path file : paths.filter(Files::isRegularFile).collect(Collectors.toList())) {
        Path target = to.resolve(from.relativize(file).toString());
        Files.createDirectories(target.getParent());
        Files.copy(file, target);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + from + " to " + to, e);
    }
    return to;
  }
}
