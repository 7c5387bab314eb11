package dev.sluice.internal.hfile;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/** The kinds of HFile blocks, named by the 8-byte magic that starts each block's header ({@code BlockType} in HBase). */
enum BlockType {
  DATA("DATABLK*"),
  ENCODED_DATA("DATABLKE"),
  LEAF_INDEX("IDXLEAF2"),
  BLOOM_CHUNK("BLMFBLK2"),
  META("METABLKc"),
  INTERMEDIATE_INDEX("IDXINTE2"),
  ROOT_INDEX("IDXROOT2"),
  FILE_INFO("FILEINF2"),
  GENERAL_BLOOM_META("BLMFMET2"),
  DELETE_FAMILY_BLOOM_META("DFBLMET2"),
  TRAILER("TRABLK\"$"),
  INDEX_V1("IDXBLK)+");

  private static final BlockType[] ALL = values();
  private final byte[] magic;

  BlockType(String magic) {
    this.magic = magic.getBytes(StandardCharsets.US_ASCII);
  }

  /** The 8 magic bytes. */
  byte[] magic() {
    return magic.clone();
  }

  /** True if {@code buf} holds this type's magic at {@code off}. */
  boolean matches(byte[] buf, int off) {
    return Arrays.equals(buf, off, off + HFileFormat.MAGIC_LENGTH, magic, 0, HFileFormat.MAGIC_LENGTH);
  }

  /** The type whose magic is at {@code off} of {@code buf}, or empty if the bytes are no known magic. */
  static Optional<BlockType> of(byte[] buf, int off) {
    for (BlockType t : ALL) {
      if (t.matches(buf, off)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /** Blocks that lie among the data blocks (the "scanned" section) and a scan steps over. */
  boolean inScannedSection() {
    return this == DATA || this == ENCODED_DATA || this == LEAF_INDEX || this == BLOOM_CHUNK;
  }
}
