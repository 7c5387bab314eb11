package dev.sluice.storage;

import java.io.IOException;
import java.io.OutputStream;

/** An output stream that knows how many bytes it has written; close makes the data durable. */
public abstract class PositionOutputStream extends OutputStream {
  /** Bytes written so far (the position of the next byte). */
  public abstract long position() throws IOException;

  /** Forces written data to durable storage (hsync / fsync). */
  public abstract void sync() throws IOException;
}
