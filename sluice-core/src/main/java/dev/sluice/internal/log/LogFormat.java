package dev.sluice.internal.log;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/** Constants of Hudi's log format ({@code HoodieLogFormat}, {@code HoodieLogBlock}) and small shared helpers. */
final class LogFormat {
  /** Every block starts with these bytes ({@code #HUDI#}). */
  static final byte[] MAGIC = {'#', 'H', 'U', 'D', 'I', '#'};
  /** Log format version written ({@code HoodieLogFormat.CURRENT_VERSION}). */
  static final int FORMAT_VERSION = 1;
  /** The legacy format without header, footer and reverse pointer. */
  static final int LEGACY_FORMAT_VERSION = 0;
  /** Version of data and delete block contents ({@code HoodieLogBlock.version}). */
  static final int CONTENT_VERSION = 3;
  /** Delete blocks of this content version and above hold Avro; below it, Java serialization. */
  static final int AVRO_DELETE_VERSION = 3;
  /** Bytes of the block-length field that follows the magic. */
  static final int LENGTH_FIELD = Long.BYTES;
  /**
   * Smallest valid block length: version, type, empty header, content length, no content, empty footer, reverse
   * pointer.
   */
  static final long MIN_BLOCK_LENGTH = 4 + 4 + 4 + 8 + 4 + 8;
  /** Schemes whose writes appear whole or not at all, so Hudi skips the corruption check there. */
  static final java.util.Set<String> TRANSACTIONAL_SCHEMES = java.util.Set.of("s3", "s3a", "gs");

  /**
   * What to do about a damaged log block: repair drops it (keeping every readable block) and names the instant whose
   * rows it held; a rollback would not do, since only the latest commit can be rolled back.
   */
  static final String DAMAGED_FIX = "Run 'sluice repair TABLE' to see what a repair keeps and 'sluice repair TABLE --apply' "
      + "to drop the damaged block (Java: Table.repair), or restore the file from a backup.";

  private LogFormat() {
  }

  /** An immutable copy of a header, in key order; rejects null values. */
  static Map<HeaderKey, String> copyHeader(Map<HeaderKey, String> header) {
    Objects.requireNonNull(header, "header");
    EnumMap<HeaderKey, String> copy = new EnumMap<>(HeaderKey.class);
    for (Map.Entry<HeaderKey, String> e : header.entrySet()) {
      copy.put(Objects.requireNonNull(e.getKey(), "header key"),
          Objects.requireNonNull(e.getValue(), () -> "header value of " + e.getKey()));
    }
    return Collections.unmodifiableMap(copy);
  }

  /** The block length field's value: {@code 4 + 4 + H + 8 + C + F + 8}. */
  static long blockLength(long headerBytes, long contentBytes, long footerBytes) {
    return Integer.BYTES + Integer.BYTES + headerBytes + Long.BYTES + contentBytes + footerBytes + Long.BYTES;
  }
}
