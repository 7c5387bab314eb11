package dev.sluice.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Storage on the local file system through NIO. Accepts plain paths and {@code file:} URIs. Publishing
 * ({@link #createExclusive}) writes a hidden temp file, fsyncs it, then hard-links it to the final name, which
 * is atomic and fails if the name exists.
 *
 * <p>Tables written by Hadoop's local file system carry a checksum side file {@code .<name>.crc} per file, which
 * Hadoop verifies on every read. Sluice writes none, but removes the side file whenever it creates, replaces,
 * renames or deletes the file it belongs to (as Hadoop's ChecksumFileSystem does), so a stale checksum never makes
 * Hudi reject a file Sluice rewrote (e.g. {@code hoodie.properties}).
 */
public final class LocalStorage implements Storage {
  @Override
  public String scheme() {
    return "file";
  }

  /**
   * Converts a path or {@code file:} URI to an NIO path. The path part is taken literally, as Hadoop's {@code Path}
   * takes it: {@code %2F} in a folder name (a URL-encoded partition value) stays those three characters and never
   * becomes a separator.
   */
  static Path toPath(String path) {
    if (path.startsWith("file:")) {
      String rest = path.substring("file:".length());
      if (rest.startsWith("//")) {
        // file:///x or file://host/x: the authority names the local machine
        int slash = rest.indexOf('/', 2);
        rest = slash < 0 ? "/" : rest.substring(slash);
      }
      return Path.of(rest);
    }
    return Path.of(path);
  }

  @Override
  public Optional<FileInfo> info(String path) throws IOException {
    Path p = toPath(path);
    try {
      BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
      return Optional.of(new FileInfo(path, a.isDirectory() ? 0 : a.size(), a.isDirectory(), a.lastModifiedTime().toMillis()));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  @Override
  public List<FileInfo> list(String dir) throws IOException {
    Path p = toPath(dir);
    if (!Files.isDirectory(p)) {
      return List.of();
    }
    List<FileInfo> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
      for (Path child : ds) {
        String childPath = StoragePaths.join(dir, child.getFileName().toString());
        try {
          BasicFileAttributes a = Files.readAttributes(child, BasicFileAttributes.class);
          out.add(new FileInfo(childPath, a.isDirectory() ? 0 : a.size(), a.isDirectory(), a.lastModifiedTime().toMillis()));
        } catch (NoSuchFileException e) {
          // deleted between listing and stat (a concurrent cleaner): it is simply not there any more
          continue;
        }
      }
    }
    out.sort(Comparator.comparing(FileInfo::path));
    return out;
  }

  @Override
  public SeekableInput openRead(String path) throws IOException {
    return new LocalInput(FileChannel.open(toPath(path), StandardOpenOption.READ));
  }

  @Override
  public PositionOutputStream create(String path, boolean overwrite) throws IOException {
    Path p = toPath(path);
    Path parent = p.getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    dropChecksum(p);
    FileChannel ch = overwrite
        ? FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING)
        : FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
    return new LocalOutput(ch);
  }

  @Override
  public void createExclusive(String path, byte[] content) throws IOException {
    Path p = toPath(path);
    Path parent = p.getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    if (Files.exists(p)) {
      throw new FileAlreadyExistsException(path);
    }
    dropChecksum(p);
    Path tmp = p.resolveSibling("." + p.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW)) {
      ByteBuffer buf = ByteBuffer.wrap(content);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    }
    try {
      Files.createLink(p, tmp);
    } catch (UnsupportedOperationException e) {
      // file systems without hard links: an atomic rename is the next best; the exists check above narrows the race
      Files.move(tmp, p, StandardCopyOption.ATOMIC_MOVE);
      return;
    } finally {
      Files.deleteIfExists(tmp);
    }
    fsyncDir(parent);
  }

  private static void fsyncDir(Path dir) {
    if (dir == null) {
      return;
    }
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // some platforms cannot open directories; the file itself is already synced
      return;
    }
  }

  @Override
  public boolean supportsAppend() {
    return false;
  }

  @Override
  public boolean delete(String path) throws IOException {
    Path p = toPath(path);
    boolean deleted = Files.deleteIfExists(p);
    dropChecksum(p);
    return deleted;
  }

  /** Deletes Hadoop's checksum side file of {@code file}, if any: once the file changes it is stale. */
  private static void dropChecksum(Path file) throws IOException {
    Path name = file.getFileName();
    if (name != null) {
      Files.deleteIfExists(file.resolveSibling("." + name + ".crc"));
    }
  }

  @Override
  public boolean deleteRecursively(String path) throws IOException {
    Path root = toPath(path);
    if (!Files.exists(root)) {
      return false;
    }
    // another process or thread may delete the same tree at once (two writers removing a stale marker folder, a
    // compactor and a writer): what vanishes under the walk is fine, so walk again until the tree is gone
    for (int attempt = 1; ; attempt++) {
      try {
        deleteTree(root);
        return true;
      } catch (NoSuchFileException | DirectoryNotEmptyException e) {
        if (!Files.exists(root)) {
          return true;
        }
        if (attempt >= 5) {
          throw e;
        }
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    Files.createDirectories(toPath(dir));
  }

  @Override
  public void rename(String from, String to) throws IOException {
    Path target = toPath(to);
    if (target.getParent() != null) {
      Files.createDirectories(target.getParent());
    }
    // an atomic move replaces an existing target on Linux; the interface promises to refuse it
    if (Files.exists(target)) {
      throw new FileAlreadyExistsException(to);
    }
    Path source = toPath(from);
    dropChecksum(target);
    Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
    dropChecksum(source);
  }

  /** Replaces {@code to} in one step: an atomic move over it (POSIX rename), then the folder is synced. */
  @Override
  public void replace(String from, String to) throws IOException {
    Path target = toPath(to);
    Path source = toPath(from);
    if (target.getParent() != null) {
      Files.createDirectories(target.getParent());
    }
    dropChecksum(target);
    Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    dropChecksum(source);
    fsyncDir(target.getParent());
  }

  private static final class LocalInput extends SeekableInput {
    private final FileChannel ch;
    private final ByteBuffer one = ByteBuffer.allocate(1);

    LocalInput(FileChannel ch) {
      this.ch = ch;
    }

    @Override
    public int read() throws IOException {
      one.clear();
      int n = ch.read(one);
      return n <= 0 ? -1 : one.get(0) & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      return ch.read(ByteBuffer.wrap(b, off, len));
    }

    @Override
    public long skip(long n) throws IOException {
      long pos = ch.position();
      long target = Math.min(ch.size(), pos + Math.max(0, n));
      ch.position(target);
      return target - pos;
    }

    @Override
    public int available() throws IOException {
      return (int) Math.min(Integer.MAX_VALUE, ch.size() - ch.position());
    }

    @Override
    public long getPos() throws IOException {
      return ch.position();
    }

    @Override
    public void seek(long pos) throws IOException {
      ch.position(pos);
    }

    @Override
    public long length() throws IOException {
      return ch.size();
    }

    @Override
    public void close() throws IOException {
      ch.close();
    }
  }

  private static final class LocalOutput extends PositionOutputStream {
    private final FileChannel ch;
    private final ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
    private long written;

    LocalOutput(FileChannel ch) {
      this.ch = ch;
    }

    @Override
    public void write(int b) throws IOException {
      if (!buf.hasRemaining()) {
        flushBuffer();
      }
      buf.put((byte) b);
      written++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len > buf.remaining()) {
        flushBuffer();
        if (len > buf.capacity()) {
          ByteBuffer direct = ByteBuffer.wrap(b, off, len);
          while (direct.hasRemaining()) {
            ch.write(direct);
          }
          written += len;
          return;
        }
      }
      buf.put(b, off, len);
      written += len;
    }

    private void flushBuffer() throws IOException {
      buf.flip();
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      buf.clear();
    }

    @Override
    public void flush() throws IOException {
      flushBuffer();
    }

    @Override
    public long position() {
      return written;
    }

    @Override
    public void sync() throws IOException {
      flushBuffer();
      ch.force(false);
    }

    @Override
    public void close() throws IOException {
      if (!ch.isOpen()) {
        return;
      }
      try {
        sync();
      } finally {
        ch.close();
      }
    }
  }
}
