package dev.sluice.storage;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A storage that "crashes the process" in tests: at the chosen call it throws {@link Crash} (an {@link Error}, which
 * the write path does not catch, so nothing is cleaned up) and from then on fails every call the same way, as if the
 * JVM were gone. {@link #restart()} brings it back, as a new process would find the storage.
 */
public final class CrashingStorage implements Storage {
  /** The simulated end of the process. */
  public static final class Crash extends Error {
    private static final long serialVersionUID = 1L;

    Crash(String where) {
      super("simulated crash at " + where);
    }
  }

  private final Storage delegate;
  private volatile Predicate<String> crashAt = c -> false;
  private volatile long skip;
  private volatile boolean dead;
  private final AtomicLong calls = new AtomicLong();

  /** Wraps {@code delegate}; crashes nowhere until {@link #crashAt} is called. */
  public CrashingStorage(Storage delegate) {
    this.delegate = delegate;
  }

  /**
   * Crashes at the {@code nth} (1-based) call whose description ({@code OP path}, e.g. {@code CREATE /t/p0/x.parquet})
   * matches {@code call}.
   */
  public CrashingStorage crashAt(Predicate<String> call, long nth) {
    this.crashAt = call;
    this.skip = nth - 1;
    this.dead = false;
    return this;
  }

  /** No more crashes; the storage works again. */
  public void restart() {
    crashAt = c -> false;
    dead = false;
  }

  /** True once the crash happened. */
  public boolean crashed() {
    return dead;
  }

  /** Calls made so far. */
  public long calls() {
    return calls.get();
  }

  private synchronized void check(String op, String path) {
    if (dead) {
      throw new Crash("(after the crash) " + op + " " + path);
    }
    calls.incrementAndGet();
    String call = op + " " + path;
    if (crashAt.test(call)) {
      if (skip == 0) {
        dead = true;
        throw new Crash(call);
      }
      skip--;
    }
  }

  @Override
  public String scheme() {
    return delegate.scheme();
  }

  @Override
  public Optional<FileInfo> info(String path) throws IOException {
    check("INFO", path);
    return delegate.info(path);
  }

  @Override
  public List<FileInfo> list(String dir) throws IOException {
    check("LIST", dir);
    return delegate.list(dir);
  }

  @Override
  public SeekableInput openRead(String path) throws IOException {
    check("OPEN", path);
    return delegate.openRead(path);
  }

  @Override
  public PositionOutputStream create(String path, boolean overwrite) throws IOException {
    check("CREATE", path);
    PositionOutputStream out = delegate.create(path, overwrite);
    return new PositionOutputStream() {
      @Override
      public void write(int b) throws IOException {
        check("WRITE", path);
        out.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        check("WRITE", path);
        out.write(b, off, len);
      }

      @Override
      public long position() throws IOException {
        return out.position();
      }

      @Override
      public void sync() throws IOException {
        check("SYNC", path);
        out.sync();
      }

      @Override
      public void flush() throws IOException {
        out.flush();
      }

      @Override
      public void close() throws IOException {
        if (dead) {
          // a dead process closes nothing: the bytes written so far stay as they are
          return;
        }
        out.close();
      }
    };
  }

  @Override
  public void createExclusive(String path, byte[] content) throws IOException {
    check("CREATE_EXCLUSIVE", path);
    delegate.createExclusive(path, content);
  }

  @Override
  public boolean supportsAppend() {
    return delegate.supportsAppend();
  }

  @Override
  public PositionOutputStream append(String path) throws IOException {
    check("APPEND", path);
    return delegate.append(path);
  }

  @Override
  public boolean delete(String path) throws IOException {
    check("DELETE", path);
    return delegate.delete(path);
  }

  @Override
  public boolean deleteRecursively(String path) throws IOException {
    check("DELETE", path);
    return delegate.deleteRecursively(path);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    check("MKDIRS", dir);
    delegate.mkdirs(dir);
  }

  @Override
  public void rename(String from, String to) throws IOException {
    check("RENAME", to);
    delegate.rename(from, to);
  }
}
