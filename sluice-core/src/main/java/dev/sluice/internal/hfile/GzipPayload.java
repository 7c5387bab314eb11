package dev.sluice.internal.hfile;

import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * Inflates a gzip-compressed HFile block payload (RFC 1952 members, as HBase's gzip codec writes them) into a
 * caller's buffer with one {@link Inflater} per thread. A metadata-table lookup inflates a few blocks of every HFile
 * it opens; a {@code GZIPInputStream} per block allocated and freed a native inflater each time, which showed in
 * profiles of the per-commit mirror. Header fields and the trailer's CRC-32 and length are checked as
 * {@code GZIPInputStream} checks them.
 */
final class GzipPayload {
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;
  private static final int HEADER = 10;
  private static final int TRAILER = 8;
  private static final ThreadLocal<Inflater> INFLATER = ThreadLocal.withInitial(() -> new Inflater(true));

  private GzipPayload() {
  }

  /**
   * Inflates {@code len} bytes of {@code src} from {@code off} (one or more concatenated gzip members) into
   * {@code out}; returns how many bytes were produced, at most {@code out.length}.
   *
   * @throws ZipException when the bytes are not gzip or their checksum or length does not match
   */
  static int inflate(byte[] src, int off, int len, byte[] out) throws ZipException {
    Inflater inflater = INFLATER.get();
    int end = off + len;
    int pos = off;
    int produced = 0;
    do {
      pos = skipHeader(src, pos, end);
      inflater.reset();
      inflater.setInput(src, pos, end - pos);
      CRC32 crc = new CRC32();
      int start = produced;
      try {
        byte[] probe = new byte[1];
        while (!inflater.finished()) {
          boolean full = produced == out.length;
          // a full buffer still inflates into a probe byte: the stream may only have its end marker left (an empty
          // block inflates to nothing), and anything it does produce is more than the header promised
          int n = full ? inflater.inflate(probe) : inflater.inflate(out, produced, out.length - produced);
          if (full && n > 0) {
            throw new ZipException("the payload inflates to more than " + out.length + " bytes");
          }
          if (n == 0 && !inflater.finished() && (inflater.needsInput() || inflater.needsDictionary())) {
            throw new ZipException("the deflate stream ends early");
          }
          produced += n;
        }
      } catch (DataFormatException e) {
        throw new ZipException(e.getMessage());
      }
      crc.update(out, start, produced - start);
      pos = end - inflater.getRemaining();
      if (end - pos < TRAILER) {
        throw new ZipException("the gzip trailer is cut short");
      }
      if (le32(src, pos) != crc.getValue()) {
        throw new ZipException("the gzip CRC-32 does not match the inflated bytes");
      }
      if (le32(src, pos + 4) != ((produced - start) & 0xffffffffL)) {
        throw new ZipException("the gzip length does not match the inflated bytes");
      }
      pos += TRAILER;
    } while (pos < end && produced < out.length);
    return produced;
  }

  private static int skipHeader(byte[] b, int pos, int end) throws ZipException {
    if (end - pos < HEADER || (b[pos] & 0xff) != 0x1f || (b[pos + 1] & 0xff) != 0x8b) {
      throw new ZipException("not in gzip format");
    }
    if (b[pos + 2] != 8) {
      throw new ZipException("unsupported gzip compression method " + (b[pos + 2] & 0xff));
    }
    int flags = b[pos + 3] & 0xff;
    int p = pos + HEADER;
    if ((flags & FEXTRA) != 0) {
      need(p + 2, end);
      p += 2 + ((b[p] & 0xff) | (b[p + 1] & 0xff) << 8);
    }
    if ((flags & FNAME) != 0) {
      p = afterZero(b, p, end);
    }
    if ((flags & FCOMMENT) != 0) {
      p = afterZero(b, p, end);
    }
    if ((flags & FHCRC) != 0) {
      p += 2;
    }
    need(p, end);
    return p;
  }

  private static int afterZero(byte[] b, int p, int end) throws ZipException {
    while (p < end && b[p] != 0) {
      p++;
    }
    need(p + 1, end);
    return p + 1;
  }

  private static void need(int p, int end) throws ZipException {
    if (p > end) {
      throw new ZipException("the gzip header is cut short");
    }
  }

  private static long le32(byte[] b, int p) {
    return (b[p] & 0xffL) | (b[p + 1] & 0xffL) << 8 | (b[p + 2] & 0xffL) << 16 | (b[p + 3] & 0xffL) << 24;
  }
}
