package dev.sluice.internal.spill;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;

/**
 * Reads a {@link SpillFile}'s records in file order through a large buffer: sequential reads for iteration and
 * compaction, where the index's order would mean one random read per record.
 */
final class SpillScanner {
  private final FileChannel channel;
  private final long end;
  private final ByteSource source = new ByteSource();
  private byte[] buf;
  private long bufStart;
  private int bufLimit;
  private int pos;
  private long offset = -1;
  private int recordStart;
  private int keyStart;
  private int keyLength;
  private int valueLength;

  /** Scans {@code [0, end)} of {@code channel} (which may be null when nothing was spilled). */
  SpillScanner(FileChannel channel, long end, int bufferBytes) {
    this.channel = channel;
    this.end = channel == null ? 0 : end;
    this.buf = new byte[(int) Math.max(64, Math.min(bufferBytes, this.end))];
  }

  /** Moves to the next record; false at the end. */
  boolean next() throws IOException {
    long nextOffset = offset < 0 ? 0 : offset + recordLength();
    if (nextOffset >= end) {
      return false;
    }
    pos = (int) (nextOffset - bufStart);
    ensure(Math.min(SpillFile.MAX_HEADER, (int) (end - nextOffset)));
    source.reset(buf, pos, bufLimit - pos);
    keyLength = source.readVarInt();
    valueLength = source.readVarInt();
    int header = source.position() - pos;
    ensure(header + keyLength + valueLength);
    offset = nextOffset;
    recordStart = pos;
    keyStart = pos + header;
    return true;
  }

  /** Makes {@code n} bytes from {@code pos} available in the buffer, sliding and growing it as needed. */
  private void ensure(int n) throws IOException {
    if (pos + n <= bufLimit) {
      return;
    }
    int kept = bufLimit - pos;
    if (n > buf.length) {
      byte[] bigger = new byte[Math.max(n, buf.length * 2)];
      System.arraycopy(buf, pos, bigger, 0, kept);
      buf = bigger;
    } else {
      System.arraycopy(buf, pos, buf, 0, kept);
    }
    bufStart += pos;
    pos = 0;
    bufLimit = kept;
    int want = (int) Math.min(buf.length - kept, end - (bufStart + kept));
    if (want < n - kept) {
      throw new IOException("Spill file truncated at " + (bufStart + kept));
    }
    SpillFile.readFully(channel, ByteBuffer.wrap(buf, kept, want), bufStart + kept);
    bufLimit = kept + want;
  }

  long offset() {
    return offset;
  }

  int recordLength() {
    return keyStart - recordStart + keyLength + valueLength;
  }

  /** The current record's key. */
  String key() {
    return new String(buf, keyStart, keyLength, StandardCharsets.UTF_8);
  }

  /** The current record's value bytes as a source, valid until {@link #next()}. */
  ByteSource value() {
    return source.reset(buf, keyStart + keyLength, valueLength);
  }

  /** The current record's bytes: {@link #recordArray()} from {@link #recordStart()}, valid until next(). */
  byte[] recordArray() {
    return buf;
  }

  int recordStart() {
    return recordStart;
  }
}
