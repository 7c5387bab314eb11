package dev.sluice.cli.build;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * A build step of sluice-cli, not part of the product (it lives with the test sources so it is never shipped):
 * makes copies of the command line's jars whose classes the JDK's class-data sharing will not archive, and points
 * {@code target/cli.classpath} (which {@code bin/sluice} runs on) at the copies.
 *
 * <p>Why: JDK 17's CDS archives no class older than class-file version 50 (Java 6), and picocli's jar is compiled
 * for Java 5 (version 49). So every {@code bin/sluice} command loaded its 170-odd picocli classes from the jar and
 * verified them with the old inference verifier, about 0.13 s of CPU per command on this machine. The copies hold
 * the same classes, unchanged but for the class-file version (52, Java 8) and the stack map frames the newer
 * verifier needs (computed by ASM from the code). The Maven build and the in-JVM tests keep using the jars as
 * published; {@code bin/sluice} and the tests that run it use the copies.
 *
 * <p>Arguments: the class path file, the folder for the copies, then the jar file names to copy (for example
 * {@code picocli-4.7.7.jar}). A copy is made again only when its jar is newer; the class path file is rewritten
 * only if an entry changes.
 */
public final class ArchivableJars {
  /** Java 8's class-file version: the oldest CDS archives, and old enough for any JDK the CLI runs on. */
  static final int TARGET_VERSION = Opcodes.V1_8;

  private ArchivableJars() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 3) {
      throw new IllegalArgumentException("usage: ArchivableJars CLASSPATH_FILE COPY_DIR JAR_NAME...");
    }
    Path classpathFile = Path.of(args[0]);
    Path copyDir = Path.of(args[1]);
    List<String> names = List.of(args).subList(2, args.length);
    String classpath = Files.readString(classpathFile, StandardCharsets.UTF_8).trim();
    List<String> entries = new ArrayList<>();
    int replaced = 0;
    for (String entry : classpath.split(File.pathSeparator)) {
      Path jar = Path.of(entry);
      if (names.contains(jar.getFileName().toString())) {
        Path copy = copyDir.resolve(jar.getFileName());
        if (!Files.exists(copy) || Files.getLastModifiedTime(copy).compareTo(Files.getLastModifiedTime(jar)) < 0) {
          Files.createDirectories(copyDir);
          upgrade(jar, copy);
        }
        entries.add(copy.toAbsolutePath().toString());
        replaced++;
      } else {
        entries.add(entry);
      }
    }
    if (replaced != names.size()) {
      throw new IllegalStateException(classpathFile + " holds " + replaced + " of the jars " + names
          + " (each is expected once): was a dependency renamed or removed?");
    }
    String rewritten = String.join(File.pathSeparator, entries);
    if (!rewritten.equals(classpath)) {
      Files.writeString(classpathFile, rewritten, StandardCharsets.UTF_8);
    }
  }

  /**
   * Writes {@code jar}'s entries to {@code copy}, each class below {@link #TARGET_VERSION} raised to it with its
   * frames computed; other entries (resources, the manifest, {@code META-INF/versions/*}) as they are.
   */
  static void upgrade(Path jar, Path copy) throws IOException {
    Path tmp = copy.resolveSibling(copy.getFileName() + ".tmp");
    try (JarFile in = new JarFile(jar.toFile(), false);
        URLClassLoader types = new URLClassLoader(new URL[] {jar.toUri().toURL()},
            ClassLoader.getPlatformClassLoader());
        OutputStream file = Files.newOutputStream(tmp);
        JarOutputStream out = new JarOutputStream(file)) {
      Enumeration<JarEntry> all = in.entries();
      while (all.hasMoreElements()) {
        JarEntry e = all.nextElement();
        byte[] bytes;
        try (InputStream s = in.getInputStream(e)) {
          bytes = s.readAllBytes();
        }
        String name = e.getName();
        if (name.endsWith(".class") && !name.startsWith("META-INF/") && !name.endsWith("module-info.class")) {
          bytes = upgradeClass(bytes, types, jar + "!/" + name);
        }
        JarEntry o = new JarEntry(name);
        o.setTime(e.getTime());
        out.putNextEntry(o);
        out.write(bytes);
        out.closeEntry();
      }
    }
    Files.move(tmp, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** One class at {@link #TARGET_VERSION}, or as it is if it already is at that version or later. */
  static byte[] upgradeClass(byte[] bytes, ClassLoader types, String where) {
    ClassReader reader = new ClassReader(bytes);
    int version = reader.readInt(4) & 0xffff;
    if (version >= TARGET_VERSION) {
      return bytes;
    }
    // COMPUTE_FRAMES merges types at branch targets: it asks for common superclasses, which it finds by loading
    // the classes from the jar itself (and the JDK), never by initialising them
    ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
      @Override
      protected ClassLoader getClassLoader() {
        return types;
      }
    };
    try {
      reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
        @Override
        public void visit(int v, int access, String name, String signature, String superName, String[] interfaces) {
          super.visit(TARGET_VERSION, access, name, signature, superName, interfaces);
        }
      }, ClassReader.SKIP_FRAMES);
    } catch (RuntimeException e) {
      // a class ASM cannot give frames (JSR/RET subroutines of very old compilers): the build stops and says which
      throw new IllegalStateException("cannot raise " + where + " from class-file version " + version + " to "
          + TARGET_VERSION + ": " + e, e);
    }
    return writer.toByteArray();
  }

  /** The class-file version of a class's bytes. */
  static int version(byte[] classBytes) {
    return new ClassReader(classBytes).readInt(4) & 0xffff;
  }
}
