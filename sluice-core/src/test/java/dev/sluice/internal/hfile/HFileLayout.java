package dev.sluice.internal.hfile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The blocks of an HFile as their headers state them, read straight from the bytes (no reader code involved). */
record HFileLayout(byte[] bytes, List<Header> blocks, Trailer trailer) {
  /** One block header. */
  record Header(BlockType type, long offset, int onDiskSizeWithoutHeader, int uncompressedSize, long prevOffset,
      byte checksumType, int bytesPerChecksum, int onDiskDataSizeWithHeader) {
    long end() {
      return offset + HFileFormat.HEADER_SIZE + onDiskSizeWithoutHeader;
    }
  }

  static HFileLayout of(Path file) throws IOException {
    byte[] b = Files.readAllBytes(file);
    int trailerAt = b.length - HFileFormat.TRAILER_SIZE;
    byte[] t = new byte[HFileFormat.TRAILER_SIZE];
    System.arraycopy(b, trailerAt, t, 0, t.length);
    List<Header> blocks = new ArrayList<>();
    int at = 0;
    while (at < trailerAt) {
      BlockType type = BlockType.of(b, at).orElseThrow(() -> new AssertionError("no magic"));
      Header h = new Header(type, at, HFileFormat.getInt(b, at + 8), HFileFormat.getInt(b, at + 12),
          HFileFormat.getLong(b, at + 16), b[at + 24], HFileFormat.getInt(b, at + 25), HFileFormat.getInt(b, at + 29));
      blocks.add(h);
      at = (int) h.end();
    }
    if (at != trailerAt) {
      throw new AssertionError("blocks end at " + at + ", the trailer starts at " + trailerAt);
    }
    return new HFileLayout(b, blocks, Trailer.parse(t));
  }

  List<Header> dataBlocks() {
    return blocks.stream().filter(h -> h.type() == BlockType.DATA).toList();
  }

  List<Header> ofType(BlockType type) {
    return blocks.stream().filter(h -> h.type() == type).toList();
  }
}
