package dev.sluice.internal.basefile;

import dev.sluice.storage.Storage;
import java.io.IOException;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** A Parquet {@link OutputFile} that writes through {@link Storage#create}. */
public final class StorageOutputFile implements OutputFile {
  private final Storage storage;
  private final String path;

  /** A file to be created at {@code path}; nothing is opened until Parquet asks. */
  public StorageOutputFile(Storage storage, String path) {
    this.storage = storage;
    this.path = path;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) throws IOException {
    return new Stream(storage.create(path, false));
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
    return new Stream(storage.create(path, true));
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }

  @Override
  public String getPath() {
    return path;
  }

  /** Adapts the storage stream; the position is the storage stream's count of written bytes. */
  private static final class Stream extends PositionOutputStream {
    private final dev.sluice.storage.PositionOutputStream out;

    Stream(dev.sluice.storage.PositionOutputStream out) {
      this.out = out;
    }

    @Override
    public long getPos() throws IOException {
      return out.position();
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
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
