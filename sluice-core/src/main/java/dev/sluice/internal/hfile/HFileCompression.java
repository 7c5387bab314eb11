package dev.sluice.internal.hfile;

import java.util.Optional;

/**
 * The block compressions Sluice reads and writes, with their id in the trailer's {@code compression_codec}
 * ({@code Compression.Algorithm} ordinals in HBase: 0 LZO, 1 GZ, 2 NONE, 3 SNAPPY, 4 LZ4, 5 BZIP2, 6 ZSTD). Hudi's
 * native reader decompresses only these two; the metadata table defaults to GZ.
 */
public enum HFileCompression {
  /** Uncompressed blocks. */
  NONE(2),
  /** Each block's payload is one gzip stream (RFC 1952), as Hadoop's gzip codec writes it. */
  GZ(1);

  private final int id;

  HFileCompression(int id) {
    this.id = id;
  }

  /** The trailer's codec id. */
  public int id() {
    return id;
  }

  /** The compression with trailer id {@code id}, or empty for codecs Sluice does not read (LZO, Snappy, ...). */
  public static Optional<HFileCompression> ofId(int id) {
    for (HFileCompression c : values()) {
      if (c.id == id) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /** The HBase name of codec id {@code id}, for messages. */
  static String nameOf(int id) {
    String[] names = {"LZO", "GZ", "NONE", "SNAPPY", "LZ4", "BZIP2", "ZSTD"};
    return id >= 0 && id < names.length ? names[id] : "codec " + id;
  }
}
