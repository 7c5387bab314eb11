package dev.sluice.interop;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * How the oracle's child JVM is started. Start-up dominates every call, so besides C1-only JIT and a small heap
 * it uses an application class-data-sharing archive ({@code oracle-cds/oracle.jsa} in hudi-oracle's build
 * folder): built once by a warm-up run that exercises every command, rebuilt when the oracle's classes, its
 * classpath or the JDK change. It saves roughly 1.5 s per call. {@code -Dsluice.oracle.cds=false} turns it off;
 * if building the archive fails the oracle runs without it. A file lock next to the archive serializes its check and
 * build between test JVMs that run side by side.
 */
final class OracleJvm {

  static final String CDS_PROPERTY = "sluice.oracle.cds";

  private static final List<String> BASE_FLAGS = List.of(
      "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx1g", "-XX:-UsePerfData", "-Djava.awt.headless=true",
      // JVM warnings (e.g. about the CDS archive) must never mix with results on stdout.
      "-Xlog:disable", "-Xlog:all=warning:stderr");

  private final Path java;
  private final List<String> prefix;

  private OracleJvm(Path java, List<String> prefix) {
    this.java = java;
    this.prefix = List.copyOf(prefix);
  }

  /** The command line up to and including the main class. */
  List<String> command() {
    List<String> out = new ArrayList<>();
    out.add(java.toString());
    out.addAll(prefix);
    out.add("dev.sluice.oracle.Oracle");
    return out;
  }

  /**
   * Sets up the JVM for an oracle built in {@code oracleDir} ({@code classes/} and its dependency list).
   */
  static synchronized OracleJvm prepare(Path java, Path oracleDir, Path classes, String dependencies) {
    List<String> plain = new ArrayList<>(BASE_FLAGS);
    plain.add("-Xshare:auto");
    plain.add("-cp");
    plain.add(classes + File.pathSeparator + dependencies);
    if (!Boolean.parseBoolean(System.getProperty(CDS_PROPERTY, "true"))) {
      return new OracleJvm(java, plain);
    }
    try {
      return withArchive(java, oracleDir.resolve("oracle-cds"), classes, dependencies)
          .orElse(new OracleJvm(java, plain));
    } catch (IOException | RuntimeException e) {
      System.err.println("oracle: running without a class-data-sharing archive: " + e);
      return new OracleJvm(java, plain);
    }
  }

  private static Optional<OracleJvm> withArchive(Path java, Path cdsDir, Path classes, String dependencies)
      throws IOException {
    Files.createDirectories(cdsDir);
    // test JVMs forked side by side (surefire's forkCount) share the archive: one checks and builds it at a time
    try (FileChannel lockFile = FileChannel.open(cdsDir.resolve("archive.lock"), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE)) {
      // released when the channel closes
      lockFile.lock();
      return withArchiveLocked(java, cdsDir, classes, dependencies);
    }
  }

  private static Optional<OracleJvm> withArchiveLocked(Path java, Path cdsDir, Path classes, String dependencies)
      throws IOException {
    Path jar = cdsDir.resolve("oracle-classes.jar");
    Path archive = cdsDir.resolve("oracle.jsa");
    Path stampFile = cdsDir.resolve("stamp.txt");
    // CDS needs a classpath of jar files only, so the oracle's classes go into a jar first, and so does any class
    // folder among its dependencies (oracle-common's, when the reactor resolves it to target/classes)
    List<Path> folders = new ArrayList<>(List.of(classes));
    List<Path> jars = new ArrayList<>(List.of(jar));
    List<String> entries = new ArrayList<>(List.of(jar.toString()));
    for (String entry : dependencies.split(File.pathSeparator)) {
      Path p = Path.of(entry);
      if (Files.isDirectory(p)) {
        folders.add(p);
        jars.add(cdsDir.resolve("dependency-" + jars.size() + ".jar"));
        entries.add(jars.get(jars.size() - 1).toString());
      } else {
        entries.add(entry);
      }
    }
    String stamp = stamp(folders, dependencies);
    String classpath = String.join(File.pathSeparator, entries);
    List<String> flags = new ArrayList<>(BASE_FLAGS);
    flags.add("-cp");
    flags.add(classpath);
    boolean fresh = Files.isRegularFile(archive) && jars.stream().allMatch(Files::isRegularFile)
        && Files.isRegularFile(stampFile)
        && Files.readString(stampFile, StandardCharsets.UTF_8).equals(stamp);
    if (!fresh) {
      Files.deleteIfExists(stampFile);
      Files.deleteIfExists(archive);
      for (int i = 0; i < folders.size(); i++) {
        writeJar(folders.get(i), jars.get(i));
      }
      if (!dump(java, flags, archive, cdsDir)) {
        return Optional.empty();
      }
      Files.writeString(stampFile, stamp, StandardCharsets.UTF_8);
    }
    List<String> shared = new ArrayList<>(flags);
    shared.add(0, "-XX:SharedArchiveFile=" + archive);
    shared.add(1, "-Xshare:auto");
    return Optional.of(new OracleJvm(java, shared));
  }

  /** Runs the oracle's warm-up with {@code -XX:ArchiveClassesAtExit}; true if an archive was written. */
  private static boolean dump(Path java, List<String> flags, Path archive, Path cdsDir) throws IOException {
    Path partial = cdsDir.resolve("oracle.jsa.partial");
    Files.deleteIfExists(partial);
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-XX:ArchiveClassesAtExit=" + partial);
    command.addAll(flags);
    command.add("dev.sluice.oracle.Oracle");
    command.add("warmup");
    command.add("--dir");
    command.add(cdsDir.toString());
    Path log = cdsDir.resolve("dump.log");
    Process process = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    try {
      if (!process.waitFor(5, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        return false;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return false;
    }
    if (process.exitValue() != 0 || !Files.isRegularFile(partial)) {
      System.err.println("oracle: class-data-sharing dump failed (see " + log + "); running without it");
      return false;
    }
    Files.move(partial, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return true;
  }

  /** Identifies the oracle build: its class files, its dependency list and the JDK. */
  private static String stamp(List<Path> folders, String dependencies) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    for (Path classes : folders) {
      for (Path file : classFiles(classes)) {
        digest.update(classes.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
        digest.update(Files.readAllBytes(file));
      }
    }
    digest.update(dependencies.getBytes(StandardCharsets.UTF_8));
    digest.update(System.getProperty("java.vm.version", "").getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(digest.digest());
  }

  private static List<Path> classFiles(Path classes) throws IOException {
    try (Stream<Path> files = Files.walk(classes)) {
      return files.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
    }
  }

  private static void writeJar(Path classes, Path jar) throws IOException {
    Path tmp = jar.resolveSibling(jar.getFileName() + ".tmp");
    try (OutputStream file = Files.newOutputStream(tmp); JarOutputStream out = new JarOutputStream(file)) {
      for (Path path : classFiles(classes)) {
        out.putNextEntry(new JarEntry(classes.relativize(path).toString().replace(File.separatorChar, '/')));
        out.write(Files.readAllBytes(path));
        out.closeEntry();
      }
    } catch (IOException e) {
      Files.deleteIfExists(tmp);
      throw new UncheckedIOException("cannot write " + jar, e);
    }
    Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
