package dev.sluice.internal.repair;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.log.CommandBlock;
import dev.sluice.internal.log.CorruptBlock;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.DeleteRecord;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogReader;
import dev.sluice.internal.log.LogScanner;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.PositionOutputStream;
import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Every block of one log file, decoded: which are sound, which are damaged (framing cut short, a header that does not
 * parse, content that does not decode), and the rewrite that keeps the sound ones byte for byte.
 */
final class LogFileCheck {
  /**
   * One block as found.
   *
   * @param offset where it starts
   * @param size its bytes
   * @param instant the instant that wrote it (from its header, also for a damaged block whose header still reads)
   * @param command true for a command block (a rollback)
   * @param records data records (or deleted keys) it holds; 0 if damaged
   * @param deletes true for a delete block
   * @param writerSchema a data block's writer schema
   * @param damage why the block is damaged, empty if it is sound
   */
  record Block(long offset, long size, Optional<String> instant, boolean command, long records, boolean deletes,
      Optional<Schema> writerSchema, Optional<String> damage) {
  }

  private final String path;
  private final long length;
  private final List<Block> blocks;

  private LogFileCheck(String path, long length, List<Block> blocks) {
    this.path = path;
    this.length = length;
    this.blocks = List.copyOf(blocks);
  }

  /** Reads and decodes every block of the log file at {@code path} ({@code length} bytes). */
  static LogFileCheck scan(Storage storage, String path, long length) {
    List<Block> out = new ArrayList<>();
    try (LogReader reader = LogReader.openLenient(storage, path)) {
      while (reader.hasNext()) {
        out.add(check(storage, path, reader.next()));
      }
    }
    return new LogFileCheck(path, length, out);
  }

  private static Block check(Storage storage, String path, LogBlock b) {
    long offset = b.span().orElseThrow().offset();
    long size = b.span().orElseThrow().size();
    if (b instanceof CorruptBlock c) {
      return new Block(offset, size, LogReader.headerInstant(storage, path, c.offset()), false, 0, false, Optional.empty(),
          Optional.of("its framing is broken (cut short, or bytes where no block starts)"));
    }
    if (b instanceof CommandBlock) {
      return new Block(offset, size, b.instantTime(), true, 0, false, Optional.empty(), Optional.empty());
    }
    long n = 0;
    Optional<Schema> schema = Optional.empty();
    try {
      if (b instanceof DataBlock d) {
        schema = Optional.of(d.writerSchema());
        Schema.Field key = d.writerSchema().getField(LogScanner.RECORD_KEY_FIELD);
        try (CloseableIterator<GenericRecord> it = d.records(d.writerSchema())) {
          while (it.hasNext()) {
            GenericRecord r = it.next();
            if (key != null && r.get(key.pos()) == null) {
              // what a reader fails on: bytes that decode, but not to a record Hudi could have written
              return new Block(offset, size, b.instantTime(), false, 0, false, Optional.empty(),
                  Optional.of("record " + n + " has no record key (the bytes decode, but not to what a writer wrote)"));
            }
            n++;
          }
        }
      } else if (b instanceof DeleteBlock d) {
        try (CloseableIterator<DeleteRecord> it = d.records()) {
          while (it.hasNext()) {
            it.next();
            n++;
          }
        }
      }
    } catch (SluiceException e) {
      // the decoder's failure is the finding: the block is reported and dropped, the file's other blocks kept
      return new Block(offset, size, b.instantTime(), false, 0, false, Optional.empty(),
          Optional.of(Finding.reason(e.getMessage())));
    }
    return new Block(offset, size, b.instantTime(), false, n, b instanceof DeleteBlock, schema, Optional.empty());
  }

  String path() {
    return path;
  }

  long length() {
    return length;
  }

  List<Block> blocks() {
    return blocks;
  }

  List<Block> damaged() {
    return blocks.stream().filter(x -> x.damage().isPresent()).toList();
  }

  List<Block> sound() {
    return blocks.stream().filter(x -> x.damage().isEmpty()).toList();
  }

  /**
   * Keeps the sound blocks only: the original goes to the backup, the sound blocks are copied in order to a work file
   * which then replaces the original (in one step where the storage can); a file with no sound block is deleted.
   */
  void rewrite(RepairBackup backup) {
    Storage storage = backup.storage();
    backup.keep(path);
    List<Block> keep = sound();
    try {
      if (keep.isEmpty()) {
        KillPoints.reach("repair.log.delete");
        storage.delete(path);
        return;
      }
      String work = backup.workPath(path);
      try (SeekableInput in = storage.openRead(path); PositionOutputStream out = storage.create(work, true)) {
        for (Block k : keep) {
          RepairBackup.copyRange(in, k.offset(), k.size(), out);
        }
      }
      KillPoints.reach("repair.log.rewritten");
      storage.replace(work, path);
      KillPoints.reach("repair.log.replaced");
    } catch (IOException e) {
      throw Errors.storage("rewrite the log file without its damaged blocks", path, e);
    }
  }
}
