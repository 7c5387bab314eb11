package dev.sluice.basefile;

import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** A Parquet {@link InputFile} that reads through {@link Storage#openRead}. */
public final class StorageInputFile implements InputFile {
  private final Storage storage;
  private final String path;
  private long length = -1;

  /** The file at {@code path}; nothing is opened until Parquet asks. */
  public StorageInputFile(Storage storage, String path) {
    this.storage = storage;
    this.path = path;
  }

  /** The file at {@code path} whose length is already known (saves a round trip on object stores). */
  public StorageInputFile(Storage storage, String path, long length) {
    this(storage, path);
    this.length = length;
  }

  /** The path this file reads. */
  public String path() {
    return path;
  }

  @Override
  public synchronized long getLength() throws IOException {
    if (length < 0) {
      try (SeekableInput in = storage.openRead(path)) {
        length = in.length();
      } catch (IOException e) {
        throw new StorageReadException(e);
      }
    }
    return length;
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    try {
      return new Stream(storage.openRead(path));
    } catch (IOException e) {
      throw new StorageReadException(e);
    }
  }

  @Override
  public String toString() {
    return path;
  }

  /** Parquet's seekable stream over a storage input; bulk reads go straight to the storage stream. */
  private static final class Stream extends DelegatingSeekableInputStream {
    private final Guard in;

    Stream(SeekableInput in) {
      this(new Guard(in));
    }

    private Stream(Guard in) {
      super(in);
      this.in = in;
    }

    @Override
    public long getPos() throws IOException {
      try {
        return in.in.getPos();
      } catch (IOException e) {
        throw new StorageReadException(e);
      }
    }

    @Override
    public void seek(long newPos) throws IOException {
      try {
        in.in.seek(newPos);
      } catch (IOException e) {
        throw new StorageReadException(e);
      }
    }
  }

  /** Tags the storage's own I/O failures (see {@link StorageReadException}). */
  private static final class Guard extends InputStream {
    private final SeekableInput in;

    Guard(SeekableInput in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      try {
        return in.read();
      } catch (IOException e) {
        throw new StorageReadException(e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return in.read(b, off, len);
      } catch (IOException e) {
        throw new StorageReadException(e);
      }
    }

    @Override
    public long skip(long n) throws IOException {
      try {
        return in.skip(n);
      } catch (IOException e) {
        throw new StorageReadException(e);
      }
    }

    @Override
    public int available() throws IOException {
      try {
        return in.available();
      } catch (IOException e) {
        throw new StorageReadException(e);
      }
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
