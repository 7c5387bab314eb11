package dev.sluice.spark.bundle;

import dev.sluice.storage.FileInfo;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.PositionOutputStream;
import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StorageProvider;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.TaskContext;

/**
 * Test storage: the local file system under the schemes {@code failonce:}, {@code slowonce:} and
 * {@code killonce:}, with one fault injected into a Spark task attempt. The first data file (a {@code .parquet}
 * outside {@code .hoodie}) that a first attempt of any task creates, in any executor, gets its first bytes written
 * and then: {@code failonce} throws (the attempt dies mid-write, a partial file left behind); {@code slowonce} stalls
 * for a minute, so speculation starts a copy elsewhere and Spark kills the stalled attempt; {@code killonce} writes
 * its executor JVM's process id to {@code <table>.pid} and waits until the test kills that JVM ({@code kill -9}),
 * failing the attempt if nobody does within ten minutes. "Once" across JVMs: a flag file beside the table
 * ({@code <table>.fired}) created atomically, then holding the path of the file that got the fault; every later
 * attempt (the retry after the kill) writes straight through. Registered for the executors through
 * META-INF/services on the test class path; nothing of it is in the production path.
 */
public final class FaultyStorageProvider implements StorageProvider {
  static final String FAIL = "failonce";
  static final String SLOW = "slowonce";
  static final String KILL = "killonce";

  @Override
  public Set<String> schemes() {
    return Set.of(FAIL, SLOW, KILL);
  }

  @Override
  public Storage create(String location, Map<String, String> settings) {
    String scheme = location.substring(0, location.indexOf(':'));
    return new Faulty(scheme, Path.of(local(location)).resolveSibling(Path.of(local(location)).getFileName() + ".fired"));
  }

  /** {@code <table>.pid} beside {@code <table>.fired}. */
  static String pidFileName(Path flag) {
    String name = flag.getFileName().toString();
    return name.substring(0, name.length() - ".fired".length()) + ".pid";
  }

  /** {@code failonce:///x} as the plain path {@code /x}. */
  static String local(String path) {
    String rest = path.substring(path.indexOf(':') + 1);
    return rest.startsWith("//") ? rest.substring(rest.indexOf('/', 2)) : rest;
  }

  private static final class Faulty implements Storage {
    private final LocalStorage local = new LocalStorage();
    private final String scheme;
    private final Path flag;

    Faulty(String scheme, Path flag) {
      this.scheme = scheme;
      this.flag = flag;
    }

    private String back(String localPath) {
      return scheme + "://" + localPath;
    }

    private FileInfo back(FileInfo f) {
      return new FileInfo(back(f.path()), f.length(), f.directory(), f.modificationTime());
    }

    @Override
    public String scheme() {
      return scheme;
    }

    @Override
    public Optional<FileInfo> info(String path) throws IOException {
      return local.info(local(path)).map(this::back);
    }

    @Override
    public List<FileInfo> list(String dir) throws IOException {
      return local.list(local(dir)).stream().map(this::back).toList();
    }

    @Override
    public SeekableInput openRead(String path) throws IOException {
      return local.openRead(local(path));
    }

    @Override
    public PositionOutputStream create(String path, boolean overwrite) throws IOException {
      PositionOutputStream out = local.create(local(path), overwrite);
      return firesHere(path) ? new Stalling(out, scheme, path, flag.resolveSibling(pidFileName(flag))) : out;
    }

    /** A data file created by the first attempt of a task, and the fault not yet fired in any JVM. */
    private boolean firesHere(String path) throws IOException {
      TaskContext task = TaskContext.get();
      if (task == null || task.attemptNumber() != 0 || !path.endsWith(".parquet") || path.contains("/.hoodie/")) {
        return false;
      }
      try {
        Files.createFile(flag);
        Files.writeString(flag, path);
        return true;
      } catch (FileAlreadyExistsException e) {
        return false;
      }
    }

    @Override
    public void createExclusive(String path, byte[] content) throws IOException {
      local.createExclusive(local(path), content);
    }

    @Override
    public boolean delete(String path) throws IOException {
      return local.delete(local(path));
    }

    @Override
    public boolean deleteRecursively(String path) throws IOException {
      return local.deleteRecursively(local(path));
    }

    @Override
    public void mkdirs(String dir) throws IOException {
      local.mkdirs(local(dir));
    }

    @Override
    public void rename(String from, String to) throws IOException {
      local.rename(local(from), local(to));
    }
  }

  /**
   * Lets the first write through (the file exists, partly written), then fails, stalls or waits to be killed on
   * every later one.
   */
  private static final class Stalling extends PositionOutputStream {
    private final PositionOutputStream out;
    private final boolean slow;
    private final boolean kill;
    private final String path;
    private final Path pidFile;
    private boolean wrote;

    Stalling(PositionOutputStream out, String scheme, String path, Path pidFile) {
      this.out = out;
      this.slow = scheme.equals(SLOW);
      this.kill = scheme.equals(KILL);
      this.path = path;
      this.pidFile = pidFile;
    }

    private void fault() throws IOException {
      if (!wrote) {
        wrote = true;
        return;
      }
      out.flush();
      if (kill) {
        awaitKill();
      }
      if (slow) {
        try {
          Thread.sleep(60_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("stalled attempt killed while writing " + path);
        }
      }
      throw new IOException("injected fault: task attempt died while writing " + path);
    }

    /** Publishes this JVM's process id (written aside, then moved: the test never reads half a number), waits. */
    private void awaitKill() throws IOException {
      Path tmp = pidFile.resolveSibling(pidFile.getFileName() + ".tmp");
      Files.writeString(tmp, Long.toString(ProcessHandle.current().pid()));
      Files.move(tmp, pidFile, StandardCopyOption.ATOMIC_MOVE);
      try {
        Thread.sleep(600_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("attempt interrupted while waiting to be killed, writing " + path);
      }
      throw new IOException("injected fault: the executor was not killed while writing " + path);
    }

    @Override
    public void write(int b) throws IOException {
      fault();
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      fault();
      out.write(b, off, len);
    }

    @Override
    public long position() throws IOException {
      return out.position();
    }

    @Override
    public void sync() throws IOException {
      out.sync();
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
