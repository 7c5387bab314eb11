package dev.sluice.storage;

import java.io.IOException;
import java.util.function.LongConsumer;

/**
 * A test input over another one whose reads return at most {@code maxRead} bytes each (as a network stream may)
 * and report the bytes they returned, and whose close can be observed; everything else passes through.
 */
public final class ObservedInput extends SeekableInput {
  private final SeekableInput in;
  private final int maxRead;
  private final LongConsumer bytesRead;
  private final Runnable closed;

  private ObservedInput(SeekableInput in, int maxRead, LongConsumer bytesRead, Runnable closed) {
    this.in = in;
    this.maxRead = maxRead;
    this.bytesRead = bytesRead;
    this.closed = closed;
  }

  /** {@code in} with every read cut to at most {@code limit} bytes. */
  public static SeekableInput shortReads(SeekableInput in, int limit) {
    return new ObservedInput(in, limit, n -> { }, () -> { });
  }

  /** {@code in} reporting the bytes each read returned to {@code bytesRead}. */
  public static SeekableInput counting(SeekableInput in, LongConsumer bytesRead) {
    return new ObservedInput(in, Integer.MAX_VALUE, bytesRead, () -> { });
  }

  /** {@code in} running {@code closed} after each close (to count the inputs left open). */
  public static SeekableInput closing(SeekableInput in, Runnable closed) {
    return new ObservedInput(in, Integer.MAX_VALUE, n -> { }, closed);
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      bytesRead.accept(1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, Math.min(len, maxRead));
    if (n > 0) {
      bytesRead.accept(n);
    }
    return n;
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
    closed.run();
  }
}
