package dev.sluice.cli.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The build step that gives bin/sluice a copy of picocli that class-data sharing archives. */
class ArchivableJarsTest {
  @TempDir
  Path dir;

  private static Path picocliJar() {
    try {
      return Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> names(Path jar) throws IOException {
    List<String> names = new ArrayList<>();
    try (JarFile f = new JarFile(jar.toFile())) {
      f.stream().map(JarEntry::getName).forEach(names::add);
    }
    return names;
  }

  private static byte[] entry(JarFile f, String name) throws IOException {
    try (InputStream in = f.getInputStream(f.getEntry(name))) {
      return in.readAllBytes();
    }
  }

  @Test
  void theCopyHoldsEveryClassAtJava8AndTheJvmVerifiesThem() throws IOException, ClassNotFoundException {
    Path original = picocliJar();
    Path copy = dir.resolve("picocli.jar");
    ArchivableJars.upgrade(original, copy);

    assertEquals(names(original), names(copy), "the same entries in the same order");
    List<String> classes = new ArrayList<>();
    try (JarFile before = new JarFile(original.toFile()); JarFile after = new JarFile(copy.toFile())) {
      for (String name : names(original)) {
        if (!name.endsWith(".class") || name.startsWith("META-INF/")) {
          if (!name.endsWith("/")) {
            // resources and the Java 9 module descriptor as they were
            assertTrue(java.util.Arrays.equals(entry(before, name), entry(after, name)), name);
          }
          continue;
        }
        assertEquals(49, ArchivableJars.version(entry(before, name)), "picocli 4.7 is compiled for Java 5: " + name);
        assertEquals(52, ArchivableJars.version(entry(after, name)), name);
        classes.add(name.substring(0, name.length() - ".class".length()).replace('/', '.'));
      }
    }
    assertTrue(classes.size() > 150, "picocli's classes: " + classes.size());
    // a class loader of its own: the JVM verifies (with the stack map frames the copy must carry) every class it
    // links, and initialising a class links it
    try (URLClassLoader loader = new URLClassLoader(new URL[] {copy.toUri().toURL()},
        ClassLoader.getPlatformClassLoader())) {
      for (String c : classes) {
        Class<?> k = Class.forName(c, true, loader);
        assertEquals(loader, k.getClassLoader(), c);
      }
      // and it still parses a command line: the copy's own CommandLine over a spec with one option
      assertTrue(parsesHelp(loader), "the copy's picocli matched --help");
    }
  }

  /** Parses {@code --help} against a spec holding that option, with the copy's picocli, by reflection. */
  private static boolean parsesHelp(ClassLoader loader) throws ClassNotFoundException {
    try {
      Class<?> specClass = Class.forName("picocli.CommandLine$Model$CommandSpec", true, loader);
      Object spec = specClass.getMethod("create").invoke(null);
      Class<?> optionSpec = Class.forName("picocli.CommandLine$Model$OptionSpec", true, loader);
      Object builder = optionSpec.getMethod("builder", String[].class).invoke(null, (Object) new String[] {"--help"});
      builder.getClass().getMethod("usageHelp", boolean.class).invoke(builder, true);
      Object option = builder.getClass().getMethod("build").invoke(builder);
      specClass.getMethod("addOption", optionSpec).invoke(spec, option);
      Class<?> commandLine = Class.forName("picocli.CommandLine", true, loader);
      Object cl = commandLine.getConstructor(Object.class).newInstance(spec);
      Object result = commandLine.getMethod("parseArgs", String[].class).invoke(cl, (Object) new String[] {"--help"});
      return (Boolean) result.getClass().getMethod("hasMatchedOption", String.class).invoke(result, "--help");
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("picocli's copy does not run", e);
    }
  }

  @Test
  void theClassPathFilePointsAtTheCopyAndKeepsEveryOtherEntry() throws IOException {
    Path original = picocliJar();
    Path cp = dir.resolve("cli.classpath");
    String before = String.join(File.pathSeparator, "/x/a.jar", original.toString(), "/y/b.jar");
    Files.writeString(cp, before, StandardCharsets.UTF_8);
    Path copies = dir.resolve("copies");
    ArchivableJars.main(new String[] {cp.toString(), copies.toString(), original.getFileName().toString()});

    Path copy = copies.resolve(original.getFileName());
    assertEquals(String.join(File.pathSeparator, "/x/a.jar", copy.toAbsolutePath().toString(), "/y/b.jar"),
        Files.readString(cp, StandardCharsets.UTF_8));
    assertTrue(Files.isRegularFile(copy));
    // a second run finds the copy up to date and the file already pointing at it: both stay as they are
    long made = Files.getLastModifiedTime(copy).toMillis();
    ArchivableJars.main(new String[] {cp.toString(), copies.toString(), original.getFileName().toString()});
    assertEquals(made, Files.getLastModifiedTime(copy).toMillis());
  }

  @Test
  void aJarMissingFromTheClassPathStopsTheBuildNamingIt() throws IOException {
    Path cp = Files.writeString(dir.resolve("cli.classpath"), "/x/a.jar", StandardCharsets.UTF_8);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> ArchivableJars.main(new String[] {cp.toString(), dir.toString(), "picocli-9.9.jar"}));
    assertTrue(e.getMessage().contains("[picocli-9.9.jar]"), e.getMessage());
    assertEquals("/x/a.jar", Files.readString(cp, StandardCharsets.UTF_8), "the file is left as it was");
  }
}
