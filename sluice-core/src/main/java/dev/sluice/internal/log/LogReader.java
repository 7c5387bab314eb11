package dev.sluice.internal.log;

import dev.sluice.api.ComputingIterator;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.util.ParsedSchemas;
import dev.sluice.storage.Storage;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * Reads the blocks of one log file forward, as Hudi 0.15's {@code HoodieLogFileReader} does.
 *
 * <p>A block is taken as whole only if its framing holds: the block length fits the file, the trailing reverse
 * pointer equals block length + 6, and the block is followed by a magic or by the end of the file (fewer than 6
 * bytes). Otherwise the span from the block's magic up to the next magic (or the end of the file) is returned as a
 * {@link CorruptBlock} and reading resumes at that magic; this is how a block cut short by a writer that died
 * is skipped. Framing is not checked on storage whose writes are all-or-nothing ({@code s3}, {@code s3a},
 * {@code gs}), as in Hudi. A block whose framing holds but whose inside is inconsistent, a legacy (version 0)
 * block, and an unknown block type or header key are reported as a damaged table.
 *
 * <p>Block contents are not read here: data and delete blocks remember where their content lies and read it when
 * asked. Iteration failures surface as {@link dev.sluice.api.SluiceException}s naming the file.
 */
public final class LogReader extends ComputingIterator<LogBlock> {
  private static final int BUFFER = 64 * 1024;
  private static final String FIX = LogFormat.DAMAGED_FIX;

  private final Storage storage;
  private final String path;
  private final boolean checkFraming;
  private final boolean lenient;
  private BlockInput in;
  private boolean done;

  private LogReader(Storage storage, String path, BlockInput in, boolean lenient) {
    this.storage = storage;
    this.path = path;
    this.in = in;
    this.lenient = lenient;
    this.checkFraming = !LogFormat.TRANSACTIONAL_SCHEMES.contains(storage.scheme());
  }

  /** Opens a log file. */
  public static LogReader open(Storage storage, String path) {
    return open(storage, path, false);
  }

  /** Opens a log file of a slice. */
  public static LogReader open(Storage storage, LogFile file) {
    return open(storage, file.path(), false);
  }

  /**
   * Opens a log file for a damage check (repair): a block whose framing holds but whose inside is damaged (bad
   * header, unknown type or version, unreadable schema), or bytes where no block starts, come back as a
   * {@link CorruptBlock} spanning the damage instead of failing the read, so that every good block after it is
   * still seen.
   */
  public static LogReader openLenient(Storage storage, String path) {
    return open(storage, path, true);
  }

  private static LogReader open(Storage storage, String path, boolean lenient) {
    try {
      return new LogReader(storage, path, new BlockInput(storage.openRead(path), BUFFER), lenient);
    } catch (IOException e) {
      throw Errors.storage("open log file", path, e);
    }
  }

  /**
   * The {@code INSTANT_TIME} header of the (damaged) block at {@code offset}, if its header can still be read: which
   * write a corrupt block came from, for reports. Empty if the bytes there do not hold a readable header.
   */
  public static Optional<String> headerInstant(Storage storage, String path, long offset) {
    try (LogReader r = open(storage, path, true)) {
      BlockInput i = r.in;
      i.seek(offset);
      if (i.remaining() < LogFormat.MAGIC.length + LogFormat.LENGTH_FIELD || !i.readMagic()) {
        return Optional.empty();
      }
      long length = i.readLong();
      Parsed p = r.parse(offset, i.position(), length);
      return Optional.ofNullable(p.header.get(HeaderKey.INSTANT_TIME));
    } catch (IOException e) {
      throw Errors.storage("read log file", path, e);
    }
  }

  /** The file being read. */
  public String path() {
    return path;
  }

  @Override
  protected LogBlock computeNext() {
    if (done) {
      return end();
    }
    LogBlock b;
    try {
      b = readBlock();
    } catch (IOException e) {
      close();
      throw Errors.storage("read log file", path, e);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    if (b == null) {
      close();
      return end();
    }
    return b;
  }

  @Override
  public void close() {
    done = true;
    if (in != null) {
      BlockInput i = in;
      in = null;
      try {
        i.close();
      } catch (IOException e) {
        // closing a read-only file loses nothing: every block returned so far is complete
      }
    }
  }

  /** The next block, or null at the end of the file. */
  private LogBlock readBlock() throws IOException {
    long start = in.position();
    if (in.remaining() < LogFormat.MAGIC.length) {
      // nothing, or the first bytes of a magic a writer did not finish: the end, as for Hudi
      return null;
    }
    if (!in.readMagic()) {
      if (lenient) {
        long nextMagic = in.findMagic(start + 1);
        in.seek(nextMagic);
        return new CorruptBlock(start, nextMagic - start);
      }
      throw Errors.badTable(path, "no log block starts at offset " + start + " (the magic #HUDI# is missing)",
          "This is not a Hudi log file, or its start is damaged; move it out of the table.");
    }
    if (in.remaining() < LogFormat.LENGTH_FIELD) {
      return corrupt(start);
    }
    long blockLength = in.readLong();
    long bodyStart = in.position();
    Parsed parsed = parse(start, bodyStart, blockLength);
    if (!framingHolds(bodyStart, blockLength)) {
      // also what a real legacy (version 0) block comes to, having no reverse pointer: Hudi 0.15 skips those too,
      // and a zero-filled tail left by a crash must not look like one
      return corrupt(start);
    }
    long end = bodyStart + blockLength;
    if (lenient && (parsed.problem != null || badSchema(parsed))) {
      in.seek(end);
      return new CorruptBlock(start, end - start);
    }
    if (parsed.formatVersion == LogFormat.LEGACY_FORMAT_VERSION) {
      throw Errors.badTable(path, "the log block at offset " + start + " is in the legacy log format version 0",
          "Sluice reads log format version 1 only; compact the file slice with the Hudi version that wrote it.");
    }
    if (parsed.problem != null) {
      throw Errors.badTable(path, "the log block at offset " + start + " is damaged: " + parsed.problem, FIX);
    }
    in.seek(end);
    return parsed.toBlock(new BlockSpan(start, end - start));
  }

  /** A corrupt block from {@code start} to the next magic after it; reading resumes there. */
  private LogBlock corrupt(long start) throws IOException {
    long nextMagic = in.findMagic(start + LogFormat.MAGIC.length);
    in.seek(nextMagic);
    return new CorruptBlock(start, nextMagic - start);
  }

  /** True if the block's SCHEMA header is there but is no Avro schema. */
  private boolean badSchema(Parsed parsed) {
    String json = parsed.header.get(HeaderKey.SCHEMA);
    if (json == null) {
      return false;
    }
    try {
      ParsedSchemas.parse(json);
      return false;
    } catch (SchemaParseException e) {
      // the lenient reader's answer to a bad schema is a corrupt block, not an error
      return true;
    }
  }

  /** Hudi's corruption check: the reverse pointer agrees with the block length, and a magic or EOF follows. */
  private boolean framingHolds(long bodyStart, long blockLength) throws IOException {
    if (!checkFraming) {
      return true;
    }
    long end = bodyStart + blockLength;
    if (blockLength < LogFormat.MIN_BLOCK_LENGTH || end > in.length() || end < bodyStart) {
      return false;
    }
    in.seek(end - Long.BYTES);
    if (in.readLong() - LogFormat.MAGIC.length != blockLength) {
      return false;
    }
    return in.remaining() < LogFormat.MAGIC.length || in.readMagic();
  }

  /** Reads a block's fields after the length; never throws for bad bytes, it records the problem instead. */
  private Parsed parse(long start, long bodyStart, long blockLength) throws IOException {
    Parsed p = new Parsed();
    long end = bodyStart + blockLength;
    // a damaged length must not make us allocate beyond what the file holds
    long limit = blockLength < 0 || end < bodyStart ? bodyStart : Math.min(end, in.length());
    try {
      p.formatVersion = in.readInt();
      if (p.formatVersion != LogFormat.FORMAT_VERSION) {
        p.problem = p.formatVersion == LogFormat.LEGACY_FORMAT_VERSION ? "legacy log format version 0"
            : "unknown log format version " + p.formatVersion + " (expected 1)";
        return p;
      }
      int typeOrdinal = in.readInt();
      p.type = LogBlockType.fromOrdinal(typeOrdinal).orElse(null);
      if (p.type == null || p.type == LogBlockType.CORRUPT_BLOCK) {
        p.problem = "unknown block type " + typeOrdinal;
        return p;
      }
      p.header = readMetadata(limit, true, p);
      if (p.problem != null) {
        return p;
      }
      long contentLength = in.readLong();
      p.contentOffset = in.position();
      long footerLimit = end - Long.BYTES - Integer.BYTES;
      if (contentLength < 0 || p.contentOffset + contentLength > footerLimit) {
        p.problem = "content length " + contentLength + " does not fit the block length " + blockLength;
        return p;
      }
      p.contentLength = contentLength;
      if ((p.type == LogBlockType.AVRO_DATA_BLOCK || p.type == LogBlockType.CDC_DATA_BLOCK) && contentLength >= 8) {
        in.readInt();
        int count = in.readInt();
        p.recordCount = count < 0 ? -1 : count;
      }
      in.seek(p.contentOffset + contentLength);
      readMetadata(limit, false, p);
      if (p.problem == null && in.position() != end - Long.BYTES) {
        p.problem = "its parts end at offset " + in.position() + " but the block length says " + (end - Long.BYTES);
      }
    } catch (EOFException e) {
      p.problem = "it ends before its fields do";
    }
    return p;
  }

  private Map<HeaderKey, String> readMetadata(long limit, boolean header, Parsed p) throws IOException {
    Map<HeaderKey, String> out = new EnumMap<>(HeaderKey.class);
    int count = in.readInt();
    if (count < 0 || count > (limit - in.position()) / 8) {
      p.problem = (header ? "header" : "footer") + " entry count " + count + " does not fit the block";
      return out;
    }
    for (int i = 0; i < count; i++) {
      int key = in.readInt();
      int len = in.readInt();
      if (len < 0 || len > limit - in.position()) {
        p.problem = (header ? "header" : "footer") + " entry " + key + " has length " + len + " beyond the block";
        return out;
      }
      byte[] value = new byte[len];
      in.readFully(value, 0, len);
      if (!header) {
        // Hudi 0.15 defines no footer keys; nothing in a footer changes how a block is read
        continue;
      }
      HeaderKey k = HeaderKey.fromOrdinal(key).orElse(null);
      if (k == null) {
        p.problem = "unknown header key " + key + " (written by a newer Hudi?)";
        return out;
      }
      out.put(k, new String(value, StandardCharsets.UTF_8));
    }
    return out;
  }

  /** The fields of one block as read, or the first problem found. */
  private final class Parsed {
    private int formatVersion = -1;
    private LogBlockType type;
    private Map<HeaderKey, String> header = Map.of();
    private long contentOffset;
    private long contentLength;
    private int recordCount = -1;
    private String problem;

    LogBlock toBlock(BlockSpan span) {
      StoredContent content = new StoredContent(storage, path, span.offset(), contentOffset, contentLength);
      return switch (type) {
        case COMMAND_BLOCK -> new CommandBlock(header, Optional.of(span));
        case DELETE_BLOCK -> DeleteBlock.stored(header, span, content);
        case AVRO_DATA_BLOCK, CDC_DATA_BLOCK, PARQUET_DATA_BLOCK, HFILE_DATA_BLOCK ->
            DataBlock.stored(type, header, span, writerSchema(span), content,
                type == LogBlockType.AVRO_DATA_BLOCK || type == LogBlockType.CDC_DATA_BLOCK ? recordCount : -1);
        default -> throw Errors.internal("block type " + type + " at offset " + span.offset() + " of " + path, null);
      };
    }

    private Schema writerSchema(BlockSpan span) {
      String json = header.get(HeaderKey.SCHEMA);
      if (json == null) {
        return null;
      }
      try {
        return ParsedSchemas.parse(json);
      } catch (SchemaParseException e) {
        throw Errors.badTable(path, "the SCHEMA header of the log block at offset " + span.offset() + " is not an Avro schema ("
            + e.getMessage() + ")", FIX, e);
      }
    }
  }
}
