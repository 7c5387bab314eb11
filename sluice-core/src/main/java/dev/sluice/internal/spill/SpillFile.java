package dev.sluice.internal.spill;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An append-only file of records {@code varint keyLength, varint valueLength, key UTF-8 bytes, value bytes},
 * written through a heap buffer and read back with positional reads. Records still in the write buffer are
 * read from it directly, so a read never forces a flush.
 *
 * <p>The file is created on the first append (no I/O before that) and deleted by {@link #close()}.
 */
final class SpillFile implements Closeable {
  /** Largest header: two 5-byte varints. */
  static final int MAX_HEADER = 10;
  /** Largest read buffer kept between reads. */
  static final int KEPT_READ_BUFFER = 1 << 20;

  private final Path directory;
  private final String prefix;
  private final int writeBufferBytes;
  private byte[] writeBuffer = new byte[0];
  private final ByteSource source = new ByteSource();
  private Path path;
  private FileChannel channel;
  private int buffered;
  private long flushedEnd;
  private byte[] readBuffer = new byte[256];
  private boolean closed;
  private boolean sealed;

  SpillFile(Path directory, String prefix, int writeBufferBytes) {
    this.directory = directory;
    this.prefix = prefix;
    this.writeBufferBytes = Math.max(4096, writeBufferBytes);
  }

  /** The file's path, once created. */
  Path path() {
    return path != null ? path : directory.resolve(prefix + "*.spill");
  }

  /** Bytes appended so far (buffered or on disk). */
  long length() {
    return flushedEnd + buffered;
  }

  static int headerLength(int keyLength, int valueLength) {
    return varIntLength(keyLength) + varIntLength(valueLength);
  }

  static int recordLength(int keyLength, int valueLength) {
    return headerLength(keyLength, valueLength) + keyLength + valueLength;
  }

  private static int varIntLength(int v) {
    return v >>> 7 == 0 ? 1 : v >>> 14 == 0 ? 2 : v >>> 21 == 0 ? 3 : v >>> 28 == 0 ? 4 : 5;
  }

  /** Appends one record and returns its offset. */
  long append(byte[] key, int keyLength, byte[] value, int valueLength) throws IOException {
    open();
    long offset = length();
    int total = recordLength(keyLength, valueLength);
    if (total > writeBuffer.length - buffered) {
      flush();
    }
    if (total <= writeBuffer.length) {
      int p = putVarInt(writeBuffer, buffered, keyLength);
      p = putVarInt(writeBuffer, p, valueLength);
      System.arraycopy(key, 0, writeBuffer, p, keyLength);
      System.arraycopy(value, 0, writeBuffer, p + keyLength, valueLength);
      buffered = p + keyLength + valueLength;
    } else {
      // Larger than the buffer (which is empty now): write it straight through.
      byte[] header = new byte[MAX_HEADER];
      int h = putVarInt(header, putVarInt(header, 0, keyLength), valueLength);
      ByteBuffer[] parts = {ByteBuffer.wrap(header, 0, h), ByteBuffer.wrap(key, 0, keyLength),
          ByteBuffer.wrap(value, 0, valueLength)};
      long left = total;
      while (left > 0) {
        left -= channel.write(parts);
      }
      flushedEnd += total;
    }
    return offset;
  }

  /** Appends a record already laid out (header, key, value), as a compaction copies it; returns its offset. */
  long appendRecord(byte[] record, int offset, int length) throws IOException {
    open();
    long at = length();
    if (length > writeBuffer.length - buffered) {
      flush();
    }
    if (length <= writeBuffer.length) {
      System.arraycopy(record, offset, writeBuffer, buffered, length);
      buffered += length;
    } else {
      ByteBuffer bb = ByteBuffer.wrap(record, offset, length);
      while (bb.hasRemaining()) {
        channel.write(bb);
      }
      flushedEnd += length;
    }
    return at;
  }

  private static int putVarInt(byte[] buf, int pos, int v) {
    while ((v & ~0x7F) != 0) {
      buf[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[pos++] = (byte) v;
    return pos;
  }

  /** Writes the buffered bytes to the file. */
  void flush() throws IOException {
    if (buffered == 0) {
      return;
    }
    ByteBuffer bb = ByteBuffer.wrap(writeBuffer, 0, buffered);
    while (bb.hasRemaining()) {
      channel.write(bb);
    }
    flushedEnd += buffered;
    buffered = 0;
  }

  /** Flushes and drops the write buffer: the file is complete (a sorted run) and is only read from now on. */
  void seal() throws IOException {
    if (channel != null) {
      flush();
    }
    sealed = true;
    writeBuffer = new byte[0];
  }

  /**
   * Bytes {@code [offset, offset + length)} as a source positioned at {@code offset}. The returned source and
   * its array are shared and valid only until the next call on this file.
   */
  ByteSource read(long offset, int length) throws IOException {
    if (offset >= flushedEnd) {
      int at = (int) (offset - flushedEnd);
      if (at + length > buffered) {
        throw new EOFException("Spill read past the end: offset " + offset + ", length " + length);
      }
      return source.reset(writeBuffer, at, length);
    }
    if (offset + length > flushedEnd) {
      flush();
    }
    byte[] into = readBuffer;
    if (into.length < length) {
      // Keep the shared buffer small: an outsized record gets an array of its own.
      into = new byte[length <= KEPT_READ_BUFFER ? Math.max(length, Math.min(KEPT_READ_BUFFER, into.length * 2)) : length];
      if (length <= KEPT_READ_BUFFER) {
        readBuffer = into;
      }
    }
    readFully(channel, ByteBuffer.wrap(into, 0, length), offset);
    return source.reset(into, 0, length);
  }

  /** The full length of the record at {@code offset}, read from its header. */
  int recordLengthAt(long offset) throws IOException {
    int n = (int) Math.min(MAX_HEADER, length() - offset);
    ByteSource header = read(offset, n);
    int keyLength = header.readVarInt();
    int valueLength = header.readVarInt();
    return recordLength(keyLength, valueLength);
  }

  static void readFully(FileChannel ch, ByteBuffer bb, long position) throws IOException {
    long pos = position;
    while (bb.hasRemaining()) {
      int n = ch.read(bb, pos);
      if (n < 0) {
        throw new EOFException("Spill file ended at " + pos);
      }
      pos += n;
    }
  }

  /** The open channel, for sequential scans; flushes first so the file holds every record. */
  FileChannel channelForScan() throws IOException {
    if (channel == null) {
      return null;
    }
    flush();
    return channel;
  }

  private void open() throws IOException {
    if (closed || sealed) {
      throw new IOException("Spill file is " + (closed ? "closed" : "sealed"));
    }
    if (channel == null) {
      Files.createDirectories(directory);
      path = Files.createTempFile(directory, prefix, ".spill");
      channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
      // Allocated with the file: most maps never spill and should not pay for the buffer.
      writeBuffer = new byte[writeBufferBytes];
    }
  }

  /** Closes and deletes the file. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    buffered = 0;
    if (channel != null) {
      try {
        channel.close();
      } finally {
        Files.deleteIfExists(path);
      }
    }
  }
}
