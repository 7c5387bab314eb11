package dev.sluice.internal.log;

import dev.sluice.internal.error.Errors;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * A block of deleted keys ({@code HoodieDeleteBlock}). Content: int content version (3), int byte length N, then
 * N bytes of the Avro datum {@code HoodieDeleteRecordList}. Read from a file, the keys stay on storage until
 * {@link #records()} streams them.
 */
public final class DeleteBlock implements LogBlock {
  private final Map<HeaderKey, String> header;
  private final Optional<BlockSpan> span;
  private final List<DeleteRecord> deletes;
  private final StoredContent stored;

  /** A delete block to write. Hudi's append handle gives it the data block's header (INSTANT_TIME, SCHEMA). */
  public DeleteBlock(Map<HeaderKey, String> header, List<DeleteRecord> deletes) {
    this.header = LogFormat.copyHeader(header);
    this.span = Optional.empty();
    this.deletes = List.copyOf(deletes);
    this.stored = null;
  }

  private DeleteBlock(Map<HeaderKey, String> header, BlockSpan span, StoredContent stored) {
    this.header = LogFormat.copyHeader(header);
    this.span = Optional.of(span);
    this.deletes = null;
    this.stored = stored;
  }

  /** A delete block with only {@code INSTANT_TIME} in its header. */
  public static DeleteBlock of(String instantTime, List<DeleteRecord> deletes) {
    return new DeleteBlock(Map.of(HeaderKey.INSTANT_TIME, instantTime), deletes);
  }

  static DeleteBlock stored(Map<HeaderKey, String> header, BlockSpan span, StoredContent content) {
    return new DeleteBlock(header, span, content);
  }

  @Override
  public LogBlockType type() {
    return LogBlockType.DELETE_BLOCK;
  }

  @Override
  public Map<HeaderKey, String> header() {
    return header;
  }

  @Override
  public Optional<BlockSpan> span() {
    return span;
  }

  /** The file and offset of a stored block, for messages. */
  String location() {
    return stored == null ? "an in-memory log block" : stored.path() + " (log block at offset " + stored.blockOffset() + ")";
  }

  /** The in-memory keys of a block built for writing. */
  Optional<List<DeleteRecord>> inMemoryRecords() {
    return Optional.ofNullable(deletes);
  }

  /** The deleted keys in block order, streamed from storage for a block read from a file; close the iterator. */
  public CloseableIterator<DeleteRecord> records() {
    if (deletes != null) {
      return CloseableIterator.of(deletes);
    }
    try {
      return new StoredDeletes(stored);
    } catch (IOException e) {
      throw stored.failure(e);
    }
  }

  /** All deleted keys as a list. */
  public List<DeleteRecord> readAll() {
    if (deletes != null) {
      return deletes;
    }
    List<DeleteRecord> out = new ArrayList<>();
    try (CloseableIterator<DeleteRecord> it = records()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeleteBlock b && b.header.equals(header) && b.span.equals(span) && Objects.equals(b.deletes, deletes)
        && Objects.equals(b.stored, stored);
  }

  @Override
  public int hashCode() {
    return Objects.hash(header, span, deletes, stored);
  }

  @Override
  public String toString() {
    return "DeleteBlock{instant=" + header.get(HeaderKey.INSTANT_TIME) + (deletes == null ? "" : ", keys=" + deletes.size())
        + span.map(s -> ", at " + s.offset() + "+" + s.size()).orElse("") + "}";
  }

  private static final class StoredDeletes implements CloseableIterator<DeleteRecord> {
    private final StoredContent content;
    private InputStream in;
    private final DeleteRecordCodec.Decoding decoding;
    private boolean finished;

    StoredDeletes(StoredContent content) throws IOException {
      this.content = content;
      this.in = content.open();
      try {
        byte[] scratch = new byte[4];
        int version = StoredContent.readInt(in, scratch);
        if (version < LogFormat.AVRO_DELETE_VERSION) {
          throw Errors.unsupported("A delete block of content version " + version + " (Java-serialized keys, in "
              + content.path() + " at offset " + content.blockOffset() + ")",
              "Compact the file slice with the Hudi version that wrote it.");
        }
        int length = StoredContent.readInt(in, scratch);
        if (length < 0 || length > content.length() - 2L * Integer.BYTES) {
          throw new DamagedContentException("delete list length " + length + " does not fit the content of "
              + content.length() + " bytes");
        }
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(in, null);
        this.decoding = new DeleteRecordCodec.Decoding(decoder);
      } catch (IOException | RuntimeException e) {
        close();
        throw e;
      }
    }

    @Override
    public boolean hasNext() {
      if (finished) {
        return false;
      }
      try {
        if (decoding.hasNext()) {
          return true;
        }
      } catch (IOException e) {
        close();
        throw content.failure(e);
      } catch (AvroRuntimeException e) {
        close();
        throw content.damaged(e);
      }
      close();
      return false;
    }

    @Override
    public DeleteRecord next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      try {
        return decoding.next();
      } catch (IOException e) {
        close();
        throw content.failure(e);
      } catch (AvroRuntimeException | ArithmeticException | java.time.DateTimeException e) {
        close();
        throw content.damaged(e);
      }
    }

    @Override
    public void close() {
      finished = true;
      if (in != null) {
        try {
          in.close();
        } catch (IOException e) {
          // a failed close of a read-only stream loses nothing: the keys read so far are complete
        } finally {
          in = null;
        }
      }
    }
  }
}
