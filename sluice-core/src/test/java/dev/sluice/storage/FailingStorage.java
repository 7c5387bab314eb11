package dev.sluice.storage;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A fault-injecting storage for tests: delegates to another storage and fails the N-th call of the chosen
 * kinds (optionally only for paths matching a predicate) with an IOException. Counts every call, so tests
 * can also assert how many listings an operation made.
 */
public final class FailingStorage implements Storage {
  /** Kinds of storage calls. */
  public enum Op { INFO, LIST, OPEN, CREATE, CREATE_EXCLUSIVE, WRITE, DELETE, MKDIRS, RENAME }

  private final Storage delegate;
  private volatile Op failOp;
  private volatile long failAt = -1;
  private volatile Predicate<String> pathFilter = p -> true;
  private final AtomicLong matching = new AtomicLong();
  private volatile int maxRead = Integer.MAX_VALUE;
  private final AtomicLong[] counts = new AtomicLong[Op.values().length];
  private final List<String> listed = new CopyOnWriteArrayList<>();

  /** Wraps {@code delegate}; fails nothing until {@link #failOn} is called. */
  public FailingStorage(Storage delegate) {
    this.delegate = delegate;
    for (int i = 0; i < counts.length; i++) {
      counts[i] = new AtomicLong();
    }
  }

  /** Fails the {@code nth} (1-based) call of {@code op} on a path matching {@code paths}, and only that one. */
  public FailingStorage failOn(Op op, long nth, Predicate<String> paths) {
    this.failOp = op;
    this.failAt = nth;
    this.pathFilter = paths;
    this.matching.set(0);
    return this;
  }

  /**
   * Makes every read of an opened file return at most {@code bytes} bytes (as a network stream may), so readers that
   * assume full reads break; {@code Integer.MAX_VALUE} turns it off.
   */
  public FailingStorage shortReads(int bytes) {
    this.maxRead = bytes;
    return this;
  }

  /** Stops failing. */
  public void heal() {
    failOp = null;
    failAt = -1;
  }

  /** How many calls of {@code op} were made. */
  public long count(Op op) {
    return counts[op.ordinal()].get();
  }

  /** The directories listed so far, in order (every {@link #list} call, also failed ones). */
  public List<String> listed() {
    return List.copyOf(listed);
  }

  /** Forgets the directories listed so far. */
  public void forgetListed() {
    listed.clear();
  }

  private void check(Op op, String path) throws IOException {
    counts[op.ordinal()].incrementAndGet();
    if (op == Op.LIST) {
      listed.add(path);
    }
    if (op == failOp && pathFilter.test(path) && matching.incrementAndGet() == failAt) {
      throw new IOException("injected failure of " + op + " on " + path);
    }
  }

  @Override
  public String scheme() {
    return delegate.scheme();
  }

  @Override
  public Optional<FileInfo> info(String path) throws IOException {
    check(Op.INFO, path);
    return delegate.info(path);
  }

  @Override
  public List<FileInfo> list(String dir) throws IOException {
    check(Op.LIST, dir);
    return delegate.list(dir);
  }

  @Override
  public SeekableInput openRead(String path) throws IOException {
    check(Op.OPEN, path);
    SeekableInput in = delegate.openRead(path);
    if (maxRead == Integer.MAX_VALUE) {
      return in;
    }
    int limit = maxRead;
    return new SeekableInput() {
      @Override
      public int read() throws IOException {
        return in.read();
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return in.read(b, off, Math.min(len, limit));
      }

      @Override
      public long getPos() throws IOException {
        return in.getPos();
      }

      @Override
      public void seek(long pos) throws IOException {
        in.seek(pos);
      }

      @Override
      public long length() throws IOException {
        return in.length();
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    };
  }

  @Override
  public PositionOutputStream create(String path, boolean overwrite) throws IOException {
    check(Op.CREATE, path);
    PositionOutputStream out = delegate.create(path, overwrite);
    return new PositionOutputStream() {
      @Override
      public void write(int b) throws IOException {
        check(Op.WRITE, path);
        out.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        check(Op.WRITE, path);
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
    };
  }

  @Override
  public void createExclusive(String path, byte[] content) throws IOException {
    check(Op.CREATE_EXCLUSIVE, path);
    delegate.createExclusive(path, content);
  }

  @Override
  public boolean delete(String path) throws IOException {
    check(Op.DELETE, path);
    return delegate.delete(path);
  }

  @Override
  public boolean deleteRecursively(String path) throws IOException {
    check(Op.DELETE, path);
    return delegate.deleteRecursively(path);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    check(Op.MKDIRS, dir);
    delegate.mkdirs(dir);
  }

  @Override
  public void rename(String from, String to) throws IOException {
    check(Op.RENAME, to);
    delegate.rename(from, to);
  }
}
