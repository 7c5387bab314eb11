package dev.sluice.internal.log;

import dev.sluice.storage.Storage;
import dev.sluice.api.CloseableIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** Describes the blocks of a log file, for {@code sluice logs TABLE FILE} and for debugging. */
public final class LogDump {
  private LogDump() {
  }

  /**
   * One block of a log file.
   *
   * @param type block type
   * @param instantTime header {@code INSTANT_TIME}, if any
   * @param header all header entries (the SCHEMA entry holds the whole writer schema)
   * @param records records of a data block or keys of a delete block; 0 for commands and corrupt spans; empty
   *     if unknown without decoding (Parquet and HFile blocks)
   * @param offset position of the block in the file
   * @param size bytes of the block
   */
  public record BlockSummary(LogBlockType type, Optional<String> instantTime, Map<HeaderKey, String> header,
                             OptionalLong records, long offset, long size) {
    /** The header keys, in ordinal order. */
    public List<HeaderKey> headerKeys() {
      return List.copyOf(header.keySet());
    }
  }

  /** The blocks of the log file at {@code path}, in file order; close the iterator. */
  public static CloseableIterator<BlockSummary> blocks(Storage storage, String path) {
    return LogReader.open(storage, path).map(LogDump::summarize);
  }

  /** All blocks of the log file at {@code path}. */
  public static List<BlockSummary> list(Storage storage, String path) {
    List<BlockSummary> out = new ArrayList<>();
    try (CloseableIterator<BlockSummary> it = blocks(storage, path)) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  /** The summary of one block (reads a delete block's keys to count them). */
  public static BlockSummary summarize(LogBlock block) {
    OptionalLong records;
    if (block instanceof DataBlock d) {
      records = d.recordCount().isPresent() ? OptionalLong.of(d.recordCount().getAsInt()) : OptionalLong.empty();
    } else if (block instanceof DeleteBlock d) {
      long n = 0;
      try (CloseableIterator<DeleteRecord> it = d.records()) {
        while (it.hasNext()) {
          it.next();
          n++;
        }
      }
      records = OptionalLong.of(n);
    } else {
      records = OptionalLong.of(0);
    }
    BlockSpan span = block.span().orElse(new BlockSpan(-1, -1));
    return new BlockSummary(block.type(), block.instantTime(), block.header(), records, span.offset(), span.size());
  }
}
