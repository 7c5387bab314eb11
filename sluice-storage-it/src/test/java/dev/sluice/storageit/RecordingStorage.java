package dev.sluice.storageit;

import dev.sluice.storage.FileInfo;
import dev.sluice.storage.PositionOutputStream;
import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A storage that records every call (kind and path, in order) before passing it on, so tests can count the
 * listings an operation made and see in which order a write touched its files. With a crash point set, the
 * matching call and every later one fail as if the writing process had died there: nothing after it reaches the
 * storage, not even the writer's own clean-up.
 */
public final class RecordingStorage implements Storage {
  /** Kinds of calls. {@code WRITE} is a write into an open stream, {@code CLOSE} its close. */
  public enum Op { INFO, LIST, OPEN, CREATE, CREATE_EXCLUSIVE, APPEND, WRITE, CLOSE, DELETE, DELETE_TREE, MKDIRS, RENAME }

  /** One recorded call. */
  public record Call(Op op, String path) {
  }

  private final Storage delegate;
  private final List<Call> calls = new ArrayList<>();
  private volatile Predicate<Call> crashPoint = c -> false;
  private volatile boolean crashed;
  private int crashIndex = -1;
  private volatile Predicate<Call> hangPoint = c -> false;
  private volatile Runnable onHang = () -> { };

  /** Records calls to {@code delegate}. */
  public RecordingStorage(Storage delegate) {
    this.delegate = delegate;
  }

  /** From the first call matching {@code point} on, every call fails: the writer "died" there. */
  public RecordingStorage crashAt(Predicate<Call> point) {
    this.crashPoint = point;
    return this;
  }

  /**
   * At the first call matching {@code point}, runs {@code onHang} and then blocks that thread for good: the
   * process stays alive, mid-write, until something kills it.
   */
  public RecordingStorage hangAt(Predicate<Call> point, Runnable onHang) {
    this.hangPoint = point;
    this.onHang = onHang;
    return this;
  }

  /** True once the crash point was reached. */
  public boolean crashed() {
    return crashed;
  }

  /** The calls so far, in order. */
  public synchronized List<Call> calls() {
    return List.copyOf(calls);
  }

  /** The calls up to and including the one the writer died at (all calls if it did not die). */
  public synchronized List<Call> callsUntilCrash() {
    return List.copyOf(crashIndex < 0 ? calls : calls.subList(0, crashIndex + 1));
  }

  /** Forgets the calls so far. */
  public synchronized void reset() {
    calls.clear();
  }

  /** The paths of the calls of {@code op}, in order. */
  public synchronized List<String> paths(Op op) {
    return calls.stream().filter(c -> c.op() == op).map(Call::path).toList();
  }

  /** How many calls of {@code op} were made. */
  public long count(Op op) {
    return paths(op).size();
  }

  private void record(Op op, String path) throws IOException {
    Call call = new Call(op, path);
    boolean dead;
    synchronized (this) {
      calls.add(call);
      if (!crashed && crashPoint.test(call)) {
        crashed = true;
        crashIndex = calls.size() - 1;
      }
      dead = crashed;
    }
    if (dead) {
      throw new IOException("simulated crash: the writer died before " + op + " " + path);
    }
    if (hangPoint.test(call)) {
      onHang.run();
      hangForever();
    }
  }

  private static void hangForever() throws IOException {
    try {
      while (true) {
        Thread.sleep(60_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while hanging", e);
    }
  }

  @Override
  public String scheme() {
    return delegate.scheme();
  }

  @Override
  public Optional<FileInfo> info(String path) throws IOException {
    record(Op.INFO, path);
    return delegate.info(path);
  }

  @Override
  public List<FileInfo> list(String dir) throws IOException {
    record(Op.LIST, dir);
    return delegate.list(dir);
  }

  @Override
  public SeekableInput openRead(String path) throws IOException {
    record(Op.OPEN, path);
    return delegate.openRead(path);
  }

  @Override
  public PositionOutputStream create(String path, boolean overwrite) throws IOException {
    record(Op.CREATE, path);
    return new Recorded(delegate.create(path, overwrite), path);
  }

  @Override
  public void createExclusive(String path, byte[] content) throws IOException {
    record(Op.CREATE_EXCLUSIVE, path);
    delegate.createExclusive(path, content);
  }

  @Override
  public boolean supportsAppend() {
    return delegate.supportsAppend();
  }

  @Override
  public PositionOutputStream append(String path) throws IOException {
    record(Op.APPEND, path);
    return new Recorded(delegate.append(path), path);
  }

  @Override
  public boolean delete(String path) throws IOException {
    record(Op.DELETE, path);
    return delegate.delete(path);
  }

  @Override
  public boolean deleteRecursively(String path) throws IOException {
    record(Op.DELETE_TREE, path);
    return delegate.deleteRecursively(path);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    record(Op.MKDIRS, dir);
    delegate.mkdirs(dir);
  }

  @Override
  public void rename(String from, String to) throws IOException {
    record(Op.RENAME, from + " -> " + to);
    delegate.rename(from, to);
  }

  /**
   * A stream whose writes and close are recorded. After a crash the underlying stream is left open, never
   * closed, as a dead process leaves it (on HDFS the file stays under construction; on S3 nothing is uploaded).
   */
  private final class Recorded extends PositionOutputStream {
    private final PositionOutputStream out;
    private final String path;

    Recorded(PositionOutputStream out, String path) {
      this.out = out;
      this.path = path;
    }

    @Override
    public void write(int b) throws IOException {
      record(Op.WRITE, path);
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      record(Op.WRITE, path);
      out.write(b, off, len);
    }

    @Override
    public long position() throws IOException {
      return out.position();
    }

    @Override
    public void sync() throws IOException {
      record(Op.WRITE, path);
      out.sync();
    }

    @Override
    public void flush() throws IOException {
      record(Op.WRITE, path);
      out.flush();
    }

    @Override
    public void close() throws IOException {
      record(Op.CLOSE, path);
      out.close();
    }
  }
}
