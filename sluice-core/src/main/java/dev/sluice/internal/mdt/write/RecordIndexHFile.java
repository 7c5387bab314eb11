package dev.sluice.internal.mdt.write;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.hfile.HFileWriter;
import dev.sluice.internal.hfile.HFileWriterOptions;
import dev.sluice.internal.mdt.MetadataRecords;
import dev.sluice.internal.mdt.RecordLocation;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * One record-index base HFile written as a stream ({@code <fileId>_0-0-0_<instant>.hfile}): cells in ascending
 * unsigned key order, the value the type-5 record's Avro binary (stored schema, key field empty), file info
 * {@code schema} and the key range, as {@link BaseHFile} lays out a {@code files} base file. Nothing is held but the
 * current HFile block.
 */
final class RecordIndexHFile {
  private static final GenericDatumWriter<GenericRecord> AVRO = new GenericDatumWriter<>(MetadataRecords.storedSchema());

  private final Storage storage;
  private final String fileId;
  private final String name;
  private final String path;
  private final HFileWriter writer;
  private final Encoder encoder = new Encoder();
  private String firstKey;
  private String lastKey;
  private long count;

  private RecordIndexHFile(Storage storage, String fileId, String name, String path, HFileWriter writer) {
    this.storage = storage;
    this.fileId = fileId;
    this.name = name;
    this.path = path;
    this.writer = writer;
  }

  /** Opens the base file of shard {@code fileId} at {@code instant} in the partition folder {@code dir}. */
  static RecordIndexHFile create(Storage storage, String dir, String fileId, String instant) {
    String name = fileId + "_" + MetadataTableWriter.WRITE_TOKEN + "_" + instant + ".hfile";
    String path = StoragePaths.join(dir, name);
    KillPoints.reach("metadata.ri.basefile.before");
    HFileWriter w = HFileWriter.create(storage, path, HFileWriterOptions.defaults());
    w.fileInfo("schema", MetadataRecords.storedSchema().toString().getBytes(StandardCharsets.UTF_8));
    return new RecordIndexHFile(storage, fileId, name, path, w);
  }

  /** The shard written. */
  String fileId() {
    return fileId;
  }

  /** Adds the entry of {@code key} (keys strictly ascending in unsigned UTF-8 order). */
  void append(String key, RecordLocation location) {
    appendEncoded(key, encode(key, location));
  }

  /** Adds a cell whose value is already a stored record's Avro binary with its key field empty. */
  void appendEncoded(String key, byte[] value) {
    writer.append(key, value);
    if (firstKey == null) {
      firstKey = key;
    }
    lastKey = key;
    count++;
  }

  /** The stored Avro binary of the entry of {@code key} at {@code location}, key field empty (the row holds it). */
  byte[] encode(String key, RecordLocation location) {
    return encode(MetadataRecords.toAvro(key, location));
  }

  /** The stored Avro binary of {@code record} with its key field emptied. */
  byte[] encode(GenericRecord record) {
    return encoder.encode(record);
  }

  /** Encodes stored records (not thread-safe: one per thread). */
  static final class Encoder {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
    private BinaryEncoder binary;

    /** The stored Avro binary of {@code record} with its key field emptied (the HFile row holds the key). */
    byte[] encode(GenericRecord record) {
      record.put(MetadataRecords.KEY, "");
      bytes.reset();
      binary = EncoderFactory.get().binaryEncoder(bytes, binary);
      try {
        AVRO.write(record, binary);
        binary.flush();
      } catch (IOException e) {
        throw Errors.internal("encoding a record-index entry failed", e);
      }
      return bytes.toByteArray();
    }
  }

  /**
   * Writes the rest of the file and returns its write stat: a bootstrap's ({@code prevCommit} {@code "null"}) or a
   * compaction's ({@code logFilesCompacted} logs folded in).
   */
  WriteStat finish(String prevCommit, boolean compaction, int logFilesCompacted) {
    if (firstKey != null) {
      writer.fileInfo("minRecordKey", firstKey.getBytes(StandardCharsets.UTF_8));
      writer.fileInfo("maxRecordKey", lastKey.getBytes(StandardCharsets.UTF_8));
    }
    writer.close();
    long size = BaseHFile.size(storage, path);
    WriteStat.Builder b = WriteStat.builder().fileId(fileId).path(RecordIndexPartition.PATH + "/" + name)
        .prevCommit(prevCommit).partitionPath(RecordIndexPartition.PATH).numWrites(count).totalWriteBytes(size)
        .fileSizeInBytes(size);
    return compaction ? b.numUpdateWrites(count).totalLogFilesCompacted(logFilesCompacted).build()
        : b.numInserts(count).build();
  }

  /** Closes and deletes a file that will not be finished because of {@code failure}, to which problems are added. */
  void abandon(RuntimeException failure) {
    try {
      writer.close();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
    try {
      storage.delete(path);
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }
}
