package dev.sluice.interop;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import dev.sluice.storage.FileInfo;
import dev.sluice.storage.PositionOutputStream;
import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;

/**
 * Simulates a writer process dying: delegates to another storage until the first publish of a path matching the
 * trigger, then refuses every call, so nothing (no clean-up either) reaches storage afterwards, as after a crash.
 */
final class CrashingStorage implements Storage {

  private final Storage delegate;
  private final Predicate<String> crashOnPublish;
  private volatile boolean crashed;

  CrashingStorage(Storage delegate, Predicate<String> crashOnPublish) {
    this.delegate = delegate;
    this.crashOnPublish = crashOnPublish;
  }

  /** Whether the simulated crash happened. */
  boolean crashed() {
    return crashed;
  }

  private void alive() {
    if (crashed) {
      throw new IllegalStateException("the writer process is dead");
    }
  }

  @Override
  public String scheme() {
    return delegate.scheme();
  }

  @Override
  public Optional<FileInfo> info(String path) throws IOException {
    alive();
    return delegate.info(path);
  }

  @Override
  public List<FileInfo> list(String dir) throws IOException {
    alive();
    return delegate.list(dir);
  }

  @Override
  public SeekableInput openRead(String path) throws IOException {
    alive();
    return delegate.openRead(path);
  }

  @Override
  public PositionOutputStream create(String path, boolean overwrite) throws IOException {
    alive();
    if (crashOnPublish.test(path)) {
      crashed = true;
      alive();
    }
    return delegate.create(path, overwrite);
  }

  @Override
  public void createExclusive(String path, byte[] content) throws IOException {
    alive();
    if (crashOnPublish.test(path)) {
      crashed = true;
      alive();
    }
    delegate.createExclusive(path, content);
  }

  @Override
  public boolean delete(String path) throws IOException {
    alive();
    return delegate.delete(path);
  }

  @Override
  public boolean deleteRecursively(String path) throws IOException {
    alive();
    return delegate.deleteRecursively(path);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    alive();
    delegate.mkdirs(dir);
  }

  @Override
  public void rename(String from, String to) throws IOException {
    alive();
    if (crashOnPublish.test(to)) {
      crashed = true;
      alive();
    }
    delegate.rename(from, to);
  }
}
