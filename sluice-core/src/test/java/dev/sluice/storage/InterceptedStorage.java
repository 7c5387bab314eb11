package dev.sluice.storage;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The one delegating storage of the tests: every call, and every write, sync, flush and close of a stream it
 * opened, is shown to an {@link Interceptor} before it reaches the wrapped storage. Fault injection, crash
 * simulation and call recording are interceptors ({@link FailingStorage}, {@link CrashingStorage}, the storage
 * tests' recording one), so none of them re-implements the forwarding.
 */
public final class InterceptedStorage implements Storage {
  /** Kinds of calls. {@code WRITE}, {@code SYNC}, {@code FLUSH} and {@code CLOSE} are calls on an open stream. */
  public enum Op {
    /** {@link Storage#info}. */
    INFO,
    /** {@link Storage#list}. */
    LIST,
    /** {@link Storage#openRead}. */
    OPEN,
    /** {@link Storage#create}. */
    CREATE,
    /** {@link Storage#createExclusive}. */
    CREATE_EXCLUSIVE,
    /** {@link Storage#append}. */
    APPEND,
    /** A write into a created or appended stream. */
    WRITE,
    /** {@link PositionOutputStream#sync}. */
    SYNC,
    /** {@link PositionOutputStream#flush}. */
    FLUSH,
    /** {@link PositionOutputStream#close}. */
    CLOSE,
    /** {@link Storage#delete}. */
    DELETE,
    /** {@link Storage#deleteRecursively}. */
    DELETE_TREE,
    /** {@link Storage#mkdirs}. */
    MKDIRS,
    /** {@link Storage#rename}; the call's path is the target. */
    RENAME
  }

  /**
   * One call.
   *
   * @param op what kind of call
   * @param path the path it is about (for a rename, the target)
   */
  public record Call(Op op, String path) {
    @Override
    public String toString() {
      return op + " " + path;
    }
  }

  /** Sees every call before the wrapped storage does. */
  @FunctionalInterface
  public interface Interceptor {
    /** Runs before {@code call} reaches the wrapped storage; throwing fails the call. */
    void before(Call call) throws IOException;

    /** The input a test reader gets for {@code call} (an {@code OPEN}); the storage's own by default. */
    default SeekableInput opened(Call call, SeekableInput in) {
      return in;
    }

    /**
     * Whether a stream's close is shown to {@link #before} and then reaches the wrapped stream (a dead process
     * closes nothing); true by default.
     */
    default boolean passesClose(Call call) {
      return true;
    }
  }

  private final Storage delegate;
  private final Interceptor interceptor;

  /** Shows every call to {@code delegate} to {@code interceptor} first. */
  public InterceptedStorage(Storage delegate, Interceptor interceptor) {
    this.delegate = delegate;
    this.interceptor = interceptor;
  }

  /** The wrapped storage. */
  public Storage delegate() {
    return delegate;
  }

  @Override
  public String scheme() {
    return delegate.scheme();
  }

  @Override
  public Optional<FileInfo> info(String path) throws IOException {
    interceptor.before(new Call(Op.INFO, path));
    return delegate.info(path);
  }

  @Override
  public List<FileInfo> list(String dir) throws IOException {
    interceptor.before(new Call(Op.LIST, dir));
    return delegate.list(dir);
  }

  @Override
  public SeekableInput openRead(String path) throws IOException {
    Call call = new Call(Op.OPEN, path);
    interceptor.before(call);
    return interceptor.opened(call, delegate.openRead(path));
  }

  @Override
  public PositionOutputStream create(String path, boolean overwrite) throws IOException {
    interceptor.before(new Call(Op.CREATE, path));
    return new Stream(delegate.create(path, overwrite), path);
  }

  @Override
  public void createExclusive(String path, byte[] content) throws IOException {
    interceptor.before(new Call(Op.CREATE_EXCLUSIVE, path));
    delegate.createExclusive(path, content);
  }

  @Override
  public boolean supportsAppend() {
    return delegate.supportsAppend();
  }

  @Override
  public PositionOutputStream append(String path) throws IOException {
    interceptor.before(new Call(Op.APPEND, path));
    return new Stream(delegate.append(path), path);
  }

  @Override
  public boolean delete(String path) throws IOException {
    interceptor.before(new Call(Op.DELETE, path));
    return delegate.delete(path);
  }

  @Override
  public boolean deleteRecursively(String path) throws IOException {
    interceptor.before(new Call(Op.DELETE_TREE, path));
    return delegate.deleteRecursively(path);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    interceptor.before(new Call(Op.MKDIRS, dir));
    delegate.mkdirs(dir);
  }

  @Override
  public void rename(String from, String to) throws IOException {
    interceptor.before(new Call(Op.RENAME, to));
    delegate.rename(from, to);
  }

  @Override
  public void replace(String from, String to) throws IOException {
    interceptor.before(new Call(Op.RENAME, to));
    delegate.replace(from, to);
  }

  /** A created or appended stream whose calls the interceptor sees too. */
  private final class Stream extends PositionOutputStream {
    private final PositionOutputStream out;
    private final String path;

    Stream(PositionOutputStream out, String path) {
      this.out = out;
      this.path = path;
    }

    @Override
    public void write(int b) throws IOException {
      interceptor.before(new Call(Op.WRITE, path));
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      interceptor.before(new Call(Op.WRITE, path));
      out.write(b, off, len);
    }

    @Override
    public long position() throws IOException {
      return out.position();
    }

    @Override
    public void sync() throws IOException {
      interceptor.before(new Call(Op.SYNC, path));
      out.sync();
    }

    @Override
    public void flush() throws IOException {
      interceptor.before(new Call(Op.FLUSH, path));
      out.flush();
    }

    @Override
    public void close() throws IOException {
      Call call = new Call(Op.CLOSE, path);
      if (interceptor.passesClose(call)) {
        interceptor.before(call);
        out.close();
      }
    }
  }
}
