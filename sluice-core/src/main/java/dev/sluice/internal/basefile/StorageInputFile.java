package dev.sluice.internal.basefile;

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
  /** Where the Parquet file starts in the storage file: 0, or a log block's content offset. */
  private final long start;
  private long length = -1;

  /** The file at {@code path}; nothing is opened until Parquet asks. */
  public StorageInputFile(Storage storage, String path) {
    this(storage, path, 0L, -1L);
  }

  /**
   * The {@code length} bytes of {@code path} from {@code start}, read as a file of their own: a Parquet file held
   * inside a MoR log file as a block's content. Positions Parquet asks for are relative to {@code start}.
   */
  public static StorageInputFile range(Storage storage, String path, long start, long length) {
    if (start < 0 || length < 0) {
      throw new IllegalArgumentException("negative range " + start + "+" + length + " of " + path);
    }
    return new StorageInputFile(storage, path, start, length);
  }

  private StorageInputFile(Storage storage, String path, long start, long length) {
    this.storage = storage;
    this.path = path;
    this.start = start;
    this.length = length;
  }

  /** The file at {@code path} whose length is already known (saves a round trip on object stores). */
  public StorageInputFile(Storage storage, String path, long length) {
    this(storage, path, 0L, length);
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
      SeekableInput in = storage.openRead(path);
      try {
        if (start > 0) {
          in.seek(start);
        }
      } catch (IOException | RuntimeException e) {
        in.close();
        throw e;
      }
      return new Stream(in, start);
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
    private final long start;

    Stream(SeekableInput in, long start) {
      this(new Guard(in), start);
    }

    private Stream(Guard in, long start) {
      super(in);
      this.in = in;
      this.start = start;
    }

    @Override
    public long getPos() throws IOException {
      try {
        return in.in.getPos() - start;
      } catch (IOException e) {
        throw new StorageReadException(e);
      }
    }

    @Override
    public void seek(long newPos) throws IOException {
      try {
        in.in.seek(start + newPos);
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
