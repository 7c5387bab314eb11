package dev.sluice.crash;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * How crash children start fast: an application class-data-sharing archive of the write path, built by a child that
 * runs one scenario and exits. CDS takes only jar files on the class path, so the build folders of the test class
 * path are packed into a jar first. If anything fails the children start without it.
 *
 * <p>The archive is built once per test JVM ({@link #shared}) and serves every harness run in it (both table versions
 * of CrashTest, the metadata and compaction kill-point tests): the children run the same class path and warm-up, so
 * one build replaces one per run (seconds each: packing the class folders and a dumping child).
 */
final class ChildClasspath {
  private static ChildClasspath shared;

  private final List<String> flags;

  private ChildClasspath(List<String> flags) {
    this.flags = List.copyOf(flags);
  }

  /** The JVM flags (class path included) children start with. */
  List<String> flags() {
    return flags;
  }

  /**
   * The children's flags for this test JVM: prepared by the first call in a temporary folder that lives until the JVM
   * exits (a test's own temporary folder is gone when that test ends).
   */
  static synchronized ChildClasspath shared() {
    if (shared == null) {
      Path dir;
      try {
        dir = Files.createTempDirectory("sluice-crash-cds");
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir), "crash-cds-cleanup"));
      shared = prepare(dir);
    }
    return shared;
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // the JVM is exiting: a leftover temp folder is all that can go wrong
      System.err.println("crash children: cannot delete " + dir + ": " + e);
    }
  }

  static ChildClasspath prepare(Path dir) {
    List<String> plain = List.of("-Xshare:auto", "-cp", System.getProperty("java.class.path"));
    if (!Boolean.parseBoolean(System.getProperty("sluice.crash.cds", "true"))) {
      return new ChildClasspath(plain);
    }
    try {
      return withArchive(dir).orElse(new ChildClasspath(plain));
    } catch (IOException | RuntimeException e) {
      System.err.println("crash children run without a class-data-sharing archive: " + e);
      return new ChildClasspath(plain);
    }
  }

  private static Optional<ChildClasspath> withArchive(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<String> entries = new ArrayList<>();
    Path packed = dir.resolve("classes.jar");
    try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(packed))) {
      for (Path p : classpath()) {
        if (Files.isDirectory(p)) {
          pack(p, jar);
        } else if (Files.isRegularFile(p)) {
          entries.add(p.toString());
        }
      }
    }
    entries.add(0, packed.toString());
    String cp = String.join(File.pathSeparator, entries);
    Path archive = dir.resolve("children.jsa");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> cmd = new ArrayList<>(List.of(java.toString(), "-XX:ArchiveClassesAtExit=" + archive, "-Xmx256m",
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", cp, CrashChild.class.getName(), dir.toString(), "--warm-up"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("dump.log").toFile()).start();
    p.getOutputStream().close();
    try {
      if (!p.waitFor(3, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        return Optional.empty();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
    if (p.exitValue() != 0 || !Files.isRegularFile(archive)) {
      return Optional.empty();
    }
    return Optional.of(new ChildClasspath(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-cp", cp)));
  }

  /** The test class path, reading the manifest of Surefire's class-path jar if that is what the JVM was given. */
  private static List<Path> classpath() throws IOException {
    List<Path> out = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(e);
      String manifestCp = null;
      if (Files.isRegularFile(p) && e.endsWith(".jar")) {
        try (JarFile jf = new JarFile(p.toFile())) {
          if (jf.getManifest() != null) {
            manifestCp = jf.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
          }
        }
      }
      if (manifestCp != null && p.getFileName().toString().startsWith("surefire")) {
        for (String u : manifestCp.trim().split("\\s+")) {
          out.add(Path.of(URI.create(u)));
        }
      } else {
        out.add(p);
      }
    }
    return out;
  }

  private static void pack(Path root, JarOutputStream jar) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path f : s.filter(Files::isRegularFile).toList()) {
        String name = root.relativize(f).toString().replace(File.separatorChar, '/');
        try {
          jar.putNextEntry(new JarEntry(name));
        } catch (java.util.zip.ZipException dup) {
          // the same resource in two build folders: the first one wins, as on the class path
          continue;
        }
        try (var in = Files.newInputStream(f)) {
          in.transferTo(jar);
        }
        jar.closeEntry();
      }
    }
  }
}
