package dev.sluice.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;

/**
 * A test storage over local files that can append to existing files, as HDFS can; every other call goes to
 * {@code delegate} (e.g. a {@link FailingStorage}), so appends and faults combine. Appends go to the local path.
 */
public final class AppendingStorage implements Storage {
  private final Storage delegate;

  /** Appending storage over {@code delegate}, which must hold local paths. */
  public AppendingStorage(Storage delegate) {
    this.delegate = delegate;
  }

  @Override
  public boolean supportsAppend() {
    return true;
  }

  @Override
  public PositionOutputStream append(String path) throws IOException {
    FileChannel ch = FileChannel.open(Path.of(path), StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    long start = ch.size();
    return new PositionOutputStream() {
      private long written;

      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(b, off, len);
        while (bb.hasRemaining()) {
          ch.write(bb);
        }
        written += len;
      }

      @Override
      public long position() {
        return start + written;
      }

      @Override
      public void sync() throws IOException {
        ch.force(false);
      }

      @Override
      public void close() throws IOException {
        ch.close();
      }
    };
  }

  @Override
  public String scheme() {
    return delegate.scheme();
  }

  @Override
  public Optional<FileInfo> info(String path) throws IOException {
    return delegate.info(path);
  }

  @Override
  public List<FileInfo> list(String dir) throws IOException {
    return delegate.list(dir);
  }

  @Override
  public SeekableInput openRead(String path) throws IOException {
    return delegate.openRead(path);
  }

  @Override
  public PositionOutputStream create(String path, boolean overwrite) throws IOException {
    return delegate.create(path, overwrite);
  }

  @Override
  public void createExclusive(String path, byte[] content) throws IOException {
    delegate.createExclusive(path, content);
  }

  @Override
  public boolean delete(String path) throws IOException {
    return delegate.delete(path);
  }

  @Override
  public boolean deleteRecursively(String path) throws IOException {
    return delegate.deleteRecursively(path);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    delegate.mkdirs(dir);
  }

  @Override
  public void rename(String from, String to) throws IOException {
    delegate.rename(from, to);
  }

  @Override
  public void replace(String from, String to) throws IOException {
    delegate.replace(from, to);
  }
}
