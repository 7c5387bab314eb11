package dev.sluice.internal.mdt.write;

import dev.sluice.internal.util.ParsedSchemas;
import dev.sluice.api.CloseableIterator;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.hfile.HFileCell;
import dev.sluice.internal.hfile.HFileReader;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.DeleteRecord;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.mdt.MetadataRecords;
import dev.sluice.internal.spill.ExternalSorter;
import dev.sluice.internal.spill.RecordSerializer;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * The record-index part of a metadata compaction: each shard's slice (base HFile and trusted log blocks) becomes a
 * new base HFile at the compaction's instant, as a streaming merge. The shard's log records go through an
 * {@link ExternalSorter} in log order (a later entry of a key wins, a delete removes it), then are merged with the base
 * file's cells, both in unsigned key order, straight into the new file. Memory: the sorter's budget and one HFile
 * block of each file, whatever the shard's size.
 */
final class RecordIndexCompaction {
  private static final byte[] DELETED = new byte[0];

  private final Storage storage;
  private final String dir;
  private final long budget;
  private final Path spillDirectory;

  RecordIndexCompaction(Storage storage, String dir, long budget, Path spillDirectory) {
    this.storage = storage;
    this.dir = dir;
    this.budget = budget;
    this.spillDirectory = spillDirectory;
  }

  /** Writes the new base file of {@code shard} at {@code time} and returns its write stat. */
  WriteStat compact(FilesPartitionState shard, Timeline mdt, String time) {
    RecordIndexHFile out = RecordIndexHFile.create(storage, dir, shard.fileId(), time);
    try (ExternalSorter<byte[]> logs = ExternalSorter.builder(RecordSerializer.bytes()).memoryBudgetBytes(budget)
        .spillDirectory(spillDirectory).build()) {
      for (Map.Entry<LogBlock, String> e : shard.trustedBlocks(storage, mdt)) {
        if (e.getKey() instanceof DataBlock d) {
          try (CloseableIterator<GenericRecord> it = d.records(MetadataRecords.storedSchema())) {
            while (it.hasNext()) {
              GenericRecord r = it.next();
              String key = r.get(MetadataRecords.KEY).toString();
              logs.add(sortKey(key), out.encode(r));
            }
          }
        } else if (e.getKey() instanceof DeleteBlock deletes) {
          try (CloseableIterator<DeleteRecord> it = deletes.records()) {
            while (it.hasNext()) {
              String key = it.next().recordKey();
              if (key != null) {
                logs.add(sortKey(key), DELETED);
              }
            }
          }
        }
      }
      try (CloseableIterator<Map.Entry<String, byte[]>> sorted = logs.sorted();
          BaseCells base = BaseCells.open(storage, shard.baseFile())) {
        merge(base, sorted, out);
      }
    } catch (RuntimeException e) {
      out.abandon(e);
      throw e;
    }
    return out.finish(shard.baseInstant(), true, shard.logFileNames().size());
  }

  private static void merge(BaseCells base, CloseableIterator<Map.Entry<String, byte[]>> logs, RecordIndexHFile out) {
    Map.Entry<String, byte[]> log = logs.hasNext() ? logs.next() : null;
    while (base.current != null || log != null) {
      int cmp = base.current == null ? 1 : log == null ? -1 : base.sortKey.compareTo(log.getKey());
      if (cmp < 0) {
        out.appendEncoded(base.key, base.value);
        base.advance();
        continue;
      }
      // the newest log entry of the key (entries of one key come in log order)
      String key = log.getKey();
      byte[] value = log.getValue();
      log = null;
      while (logs.hasNext()) {
        Map.Entry<String, byte[]> next = logs.next();
        if (!next.getKey().equals(key)) {
          log = next;
          break;
        }
        value = next.getValue();
      }
      if (cmp == 0) {
        base.advance();
      }
      if (value.length > 0) {
        out.appendEncoded(keyOf(key), value);
      }
    }
  }

  /** A key's UTF-8 bytes as Latin-1 chars: their {@link String#compareTo} is HFile order. */
  static String sortKey(String key) {
    return new String(key.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
  }

  private static String keyOf(String sortKey) {
    return new String(sortKey.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
  }

  /**
   * The base file's cells in order, their values re-encoded in the stored schema only when the file was written with
   * another schema (a file written by another engine version).
   */
  private static final class BaseCells implements AutoCloseable {
    private final HFileReader reader;
    private final CloseableIterator<HFileCell> cells;
    private final GenericDatumReader<GenericRecord> convert;
    private final RecordIndexHFile.Encoder encoder = new RecordIndexHFile.Encoder();
    private final String path;
    private BinaryDecoder decoder;
    private String key;
    private String sortKey;
    private byte[] value;
    private Object current;

    private BaseCells(HFileReader reader, GenericDatumReader<GenericRecord> convert, String path) {
      this.reader = reader;
      this.cells = reader == null ? CloseableIterator.empty() : reader.scan();
      this.convert = convert;
      this.path = path;
      advance();
    }

    static BaseCells open(Storage storage, java.util.Optional<FileInfo> file) {
      if (file.isEmpty()) {
        return new BaseCells(null, null, "");
      }
      FileInfo f = file.get();
      HFileReader reader = HFileReader.open(storage, f.path(), f.length());
      String schema = reader.fileInfo("schema").map(b -> new String(b, StandardCharsets.UTF_8)).orElse("");
      GenericDatumReader<GenericRecord> convert = null;
      if (!schema.equals(MetadataRecords.storedSchema().toString())) {
        try {
          convert = new GenericDatumReader<>(ParsedSchemas.parse(schema), MetadataRecords.storedSchema());
        } catch (RuntimeException e) {
          reader.close();
          throw Errors.badTable(f.path(), "the record index's base file has no readable 'schema' file info: "
              + e.getMessage(), "Drop the record index (hoodie.metadata.record.index.enable=false for one write).", e);
        }
      }
      return new BaseCells(reader, convert, f.path());
    }

    void advance() {
      if (!cells.hasNext()) {
        current = null;
        return;
      }
      HFileCell c = cells.next();
      key = c.keyString();
      sortKey = new String(c.key(), StandardCharsets.ISO_8859_1);
      value = convert == null ? c.value() : reencode(c);
      current = c;
    }

    private byte[] reencode(HFileCell c) {
      decoder = DecoderFactory.get().binaryDecoder(c.value(), decoder);
      try {
        GenericRecord r = convert.read(null, decoder);
        return encoder.encode(r);
      } catch (IOException | RuntimeException e) {
        throw Errors.badTable(path, "the record-index entry '" + key + "' does not decode: " + e.getMessage(),
            "Drop the record index (hoodie.metadata.record.index.enable=false for one write).", e instanceof
            RuntimeException re ? re : new IllegalStateException(e));
      }
    }

    @Override
    public void close() {
      try {
        cells.close();
      } finally {
        if (reader != null) {
          reader.close();
        }
      }
    }
  }
}
