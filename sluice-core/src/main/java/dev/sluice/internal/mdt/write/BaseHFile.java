package dev.sluice.internal.mdt.write;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.hfile.HFileWriter;
import dev.sluice.internal.hfile.HFileWriterOptions;
import dev.sluice.internal.mdt.FilesRecord;
import dev.sluice.internal.mdt.MetadataRecords;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.TreeMap;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * A base file of the {@code files} partition as Hudi's HFile writer lays it out ({@code HoodieAvroHFileWriter}): one
 * cell per record in unsigned byte order of the keys, the value the record's Avro binary (stored schema) with an
 * empty key (the row holds it), file info {@code schema} and the key range. Hudi also writes a bloom filter of the
 * keys, which no metadata-table reader uses.
 */
final class BaseHFile {
  private BaseHFile() {
  }

  /** Writes {@code records} (distinct keys) to a new file at {@code path}. */
  static void write(Storage storage, String path, Collection<FilesRecord> records) {
    TreeMap<String, byte[]> cells = new TreeMap<>((a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8),
        b.getBytes(StandardCharsets.UTF_8)));
    GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(MetadataRecords.storedSchema());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BinaryEncoder encoder = null;
    for (FilesRecord r : records) {
      GenericRecord avro = MetadataRecords.toAvro(r);
      avro.put(MetadataRecords.KEY, "");
      bytes.reset();
      encoder = EncoderFactory.get().binaryEncoder(bytes, encoder);
      try {
        writer.write(avro, encoder);
        encoder.flush();
      } catch (IOException e) {
        throw Errors.internal("encoding a metadata record failed", e);
      }
      if (cells.put(r.key(), bytes.toByteArray()) != null) {
        throw Errors.internal("two metadata records with key " + r.key() + " for one base file", null);
      }
    }
    KillPoints.reach("metadata.basefile.before");
    try (HFileWriter w = HFileWriter.create(storage, path, HFileWriterOptions.defaults())) {
      w.fileInfo("schema", MetadataRecords.storedSchema().toString().getBytes(StandardCharsets.UTF_8));
      if (!cells.isEmpty()) {
        w.fileInfo("minRecordKey", cells.firstKey().getBytes(StandardCharsets.UTF_8));
        w.fileInfo("maxRecordKey", cells.lastKey().getBytes(StandardCharsets.UTF_8));
      }
      cells.forEach(w::append);
    }
  }

  /** The size of the file just written at {@code path}. */
  static long size(Storage storage, String path) {
    try {
      return storage.info(path).map(FileInfo::length).orElseThrow(() -> Errors.storage("find the file just written",
          path, new IOException("missing")));
    } catch (IOException e) {
      throw Errors.storage("check the size of", path, e);
    }
  }
}
