package dev.sluice.internal.index;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Table;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.hfile.HFileWriter;
import dev.sluice.internal.hfile.HFileWriterOptions;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.mdt.MetadataRecords;
import dev.sluice.internal.mdt.RecordLocation;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.Storage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Builds a {@code record_index} partition for a Sluice table with a metadata table, as Hudi's record-index
 * bootstrap lays it out: the location of every key of the latest snapshot, hashed into {@code shards} file groups
 * with base HFiles at the metadata table's latest instant, then {@code record_index} listed in
 * {@code hoodie.table.metadata.partitions}. (Sluice does not build one itself here; that is the record-index
 * writer's part.)
 */
public final class RecordIndexFixture {
  private RecordIndexFixture() {
  }

  /** The location of every key of {@code t}'s snapshot, read from its meta columns. */
  public static Map<String, RecordLocation> locations(Table t, String instant) {
    Map<String, RecordLocation> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().withMetaColumns(true).open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        String fileId = FileNames.parseBase(r.get("_hoodie_file_name").toString()).orElseThrow().fileId();
        out.put(r.get("_hoodie_record_key").toString(),
            new RecordLocation(r.get("_hoodie_partition_path").toString(), fileId, instant));
      }
    }
    return out;
  }

  /** Writes {@code entries} as a record index of {@code shards} file groups and lists it in the table config. */
  public static void build(Storage storage, String basePath, int shards, Map<String, RecordLocation> entries) {
    build(storage, basePath, shards, entries, false);
  }

  /**
   * As {@link #build(Storage, String, int, Map)}; {@code oneShard} puts every key in file group 0 whatever its hash,
   * as Hudi 0.15's Java client does when it builds a record index over existing data.
   */
  static void build(Storage storage, String basePath, int shards, Map<String, RecordLocation> entries,
      boolean oneShard) {
    String mdt = TableLayout.metadataTableFolder(basePath);
    String instant = new TimelineStore(storage, mdt).load().lastCompleted().orElseThrow().time();
    Path part = Path.of(mdt, MetadataPartition.RECORD_INDEX.path());
    try {
      Files.createDirectories(part);
      Map<Integer, Map<String, RecordLocation>> byShard = new TreeMap<>();
      for (int s = 0; s < shards; s++) {
        byShard.put(s, new TreeMap<>());
      }
      entries.forEach((k, v) -> byShard.get(oneShard ? 0 : MetadataPartition.fileGroupIndex(k, shards)).put(k, v));
      for (Map.Entry<Integer, Map<String, RecordLocation>> e : byShard.entrySet()) {
        String fileId = MetadataPartition.RECORD_INDEX.fileId(e.getKey());
        writeBase(storage, part.resolve(fileId + "_0-0-0_" + instant + ".hfile"), e.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    TableConfigStore.update(storage, basePath, c -> c.with(TableConfig.METADATA_PARTITIONS, "files,record_index"));
  }

  private static void writeBase(Storage storage, Path file, Map<String, RecordLocation> entries) throws IOException {
    GenericDatumWriter<GenericRecord> w = new GenericDatumWriter<>(MetadataRecords.storedSchema());
    List<String> keys = new ArrayList<>(entries.keySet());
    keys.sort((a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
    try (HFileWriter hw = HFileWriter.create(storage, file.toString(), HFileWriterOptions.defaults())) {
      hw.fileInfo("schema", MetadataRecords.storedSchema().toString().getBytes(StandardCharsets.UTF_8));
      for (String k : keys) {
        GenericRecord r = MetadataRecords.toAvro(k, entries.get(k));
        r.put(MetadataRecords.KEY, "");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        w.write(r, enc);
        enc.flush();
        hw.append(k, out.toByteArray());
      }
    }
  }
}
