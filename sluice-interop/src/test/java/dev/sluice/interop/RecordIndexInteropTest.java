package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Config;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.index.Index;
import dev.sluice.internal.index.IndexSettings;
import dev.sluice.internal.index.IndexedTable;
import dev.sluice.internal.index.Indexes;
import dev.sluice.internal.index.TaggedRecord;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hoodie.index.type=RECORD_INDEX} between Sluice and Spark with Hudi 0.15's bundle, on a table Sluice created:
 * Spark upserts with the record index on (Hudi builds {@code record_index} over Sluice's metadata table), Sluice's
 * record index tags every key where Hudi's own {@code readRecordIndex} puts it, Sluice upserts with
 * {@code RECORD_INDEX}, Spark upserts again through the record index, and Hudi's reader and Sluice read the same
 * rows without a duplicate key.
 */
class RecordIndexInteropTest {
  private static final String DDL = "id STRING, ts BIGINT, part STRING, name STRING, amount DOUBLE";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private final Storage storage = new LocalStorage();
  private final List<String> warnings = new ArrayList<>();
  private final Logger jul = Logger.getLogger("dev.sluice.internal.index.RecordLevelIndex");
  private final Handler capture = new Handler() {
    @Override
    public void publish(LogRecord r) {
      synchronized (warnings) {
        warnings.add(r.getMessage());
      }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
  };

  @BeforeEach
  void hook() {
    jul.addHandler(capture);
  }

  @AfterEach
  void unhook() {
    jul.removeHandler(capture);
  }

  /** Hudi's Spark options: the trips table, record index built and used, metadata table on. */
  private static Map<String, String> sparkOptions() {
    Map<String, String> o = new HashMap<>(Map.of("hoodie.table.name", "trips",
        "hoodie.datasource.write.recordkey.field", "id", "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.datasource.write.partitionpath.field", "part", "hoodie.datasource.write.table.type", "COPY_ON_WRITE",
        "hoodie.metadata.enable", "true", "hoodie.index.type", "RECORD_INDEX",
        "hoodie.metadata.record.index.enable", "true", "hoodie.parquet.small.file.limit", "0"));
    o.put("hoodie.metadata.record.index.min.filegroup.count", "4");
    o.put("hoodie.metadata.record.index.max.filegroup.count", "4");
    return o;
  }

  private static List<GenericRecord> named(List<GenericRecord> records, String prefix) {
    records.forEach(r -> r.put("name", prefix + r.get("id")));
    return records;
  }

  @Test
  void sparkWithHudi015AndSluiceUpsertATableThroughTheRecordIndexWithoutDuplicates() throws IOException {
    Path path = dir.resolve("trips");
    Table t = TripFixture.create(path, TripFixture.spec().build(), Map.of("hoodie.metadata.enable", "true",
        "hoodie.parquet.small.file.limit", "0"));
    t.insert(TripFixture.trips(0, 60, 3, 1).iterator());

    HudiSpark spark = HudiSpark.locate("0.15.0");
    spark.write(path, "upsert", named(TripFixture.trips(50, 20, 3, 2), "spark1-"), DDL, sparkOptions(), dir);
    TableConfig config = TableConfigStore.read(storage, path.toString());
    assertTrue(config.metadataPartitions().contains("record_index"), "Hudi built the record index: " + config
        .metadataPartitions());

    // Sluice's record index puts every key where Hudi's own reader of it does, and knows no new key
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 70; i++) {
      keys.add(String.format("id-%06d", i));
    }
    keys.add("id-999999");
    Map<String, String> hudi = hudiRecordIndex(path, keys);
    assertEquals(70, hudi.size(), hudi.toString());
    Map<String, String> placement = placement(Tables.open(path.toString(), Config.empty()));
    assertEquals(placement, hudi, "Hudi's record index names the file group each key is in");
    Index ri = Indexes.of(storage, new IndexedTable(path.toString(), config, true),
        new IndexSettings("RECORD_INDEX", true, false, 2));
    FileSystemView view = MetadataTables.view(storage, path.toString(), new TimelineStore(storage, path.toString())
        .load(), config, true);
    List<WriteRecord> probe = new ArrayList<>();
    for (String k : keys) {
      probe.add(new WriteRecord(k, "p" + (Integer.parseInt(k.substring(3)) % 3), null, 0L,
          WriteRecord.DeleteKind.NONE));
    }
    Map<String, String> tagged = new TreeMap<>();
    for (TaggedRecord tr : ri.tag(probe, view)) {
      tr.location().ifPresent(l -> tagged.put(tr.record().key(), l.partitionPath() + "/" + l.fileId()));
    }
    assertEquals(hudi, tagged);
    assertTrue(ri.filesOpened() <= 4, "at most one base HFile per shard, no data file: " + ri.filesOpened());
    assertTrue(warnings.isEmpty(), warnings.toString());

    // Sluice upserts with RECORD_INDEX: updates in place, inserts new; one key arrives in another partition
    List<GenericRecord> bySluice = named(TripFixture.trips(40, 20, 3, 3), "sluice-");
    bySluice.addAll(named(TripFixture.trips(100, 5, 3, 3), "sluice-"));
    Table sluice = Tables.open(path.toString(), Config.of(Map.of("hoodie.index.type", "RECORD_INDEX",
        "hoodie.metadata.record.index.enable", "true")));
    // Spark rewrote the table schema with nullable columns: the records follow it
    sluice.upsert(inSchema(bySluice, sluice.schema()).iterator());
    Map<String, String> afterSluice = placement(Tables.open(path.toString(), Config.empty()));
    assertEquals(75, afterSluice.size());
    for (int i = 40; i < 60; i++) {
      String k = String.format("id-%06d", i);
      assertEquals(hudi.get(k), afterSluice.get(k), "updated in the file group Hudi's index names: " + k);
    }
    // Until the record-index writer (ri-write) is merged, Sluice's metadata writer drops record_index before the
    // write tags ("unmaintained"), so the write tags as GLOBAL_SIMPLE with a warning: same placement, no duplicates.
    // After that merge, tighten to: no warning, and record_index still listed after the write.
    assertTrue(warnings.stream().anyMatch(w -> w.contains("does not list record_index")), warnings.toString());
    assertFalse(TableConfigStore.read(storage, path.toString()).metadataPartitions().contains("record_index"));

    // Spark upserts again through the record index (rebuilt if Sluice dropped it)
    spark.write(path, "upsert", named(TripFixture.trips(55, 15, 3, 4), "spark2-"), DDL, sparkOptions(), dir);
    Map<String, String> afterSpark = placement(Tables.open(path.toString(), Config.empty()));
    List<String> all = new ArrayList<>(afterSpark.keySet());
    all.add("id-999999");
    assertEquals(afterSpark, hudiRecordIndex(path, all), "Hudi's record index after both writers: every key, where it is");
    Map<String, String> sluiceRows = new TreeMap<>();
    TripFixture.rows(Tables.open(path.toString(), Config.empty())).forEach((k, r) -> sluiceRows.put(k,
        r.get("name") + "@" + r.get("ts") + "/" + r.get("part")));
    // Hudi 0.15's own reader (Java, metadata-table listing on): every key once, the rows Sluice reads
    List<GenericRecord> hudiRows = HudiOracle.locate().read(path, "snapshot", Optional.empty(), true);
    Map<String, String> byHudi = new TreeMap<>();
    for (GenericRecord r : hudiRows) {
      String prev = byHudi.put(r.get("id").toString(), r.get("name") + "@" + r.get("ts") + "/" + r.get("part"));
      assertEquals(null, prev, "duplicate key in Hudi's read: " + r.get("id"));
    }
    assertEquals(75, hudiRows.size());
    assertEquals(sluiceRows, byHudi, "Hudi and Sluice read the same rows");
    assertEquals("spark2-id-000055@4/p1", byHudi.get("id-000055"));
    assertEquals("sluice-id-000042@3/p0", byHudi.get("id-000042"));
    assertEquals("sluice-id-000102@3/p0", byHudi.get("id-000102"));
    assertFalse(byHudi.containsKey("id-999999"));
  }

  private static List<GenericRecord> inSchema(List<GenericRecord> records, Schema schema) {
    List<GenericRecord> out = new ArrayList<>();
    for (GenericRecord r : records) {
      GenericRecord c = new GenericData.Record(schema);
      schema.getFields().forEach(f -> c.put(f.name(), r.get(f.name())));
      out.add(c);
    }
    return out;
  }

  /** Each key's "partition/fileId" from the table's meta columns. */
  private static Map<String, String> placement(Table t) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().withMetaColumns(true).open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        String prev = out.put(r.get("_hoodie_record_key").toString(), r.get("_hoodie_partition_path") + "/"
            + r.get("_hoodie_file_name").toString().split("_")[0]);
        assertEquals(null, prev, "duplicate key " + r.get("_hoodie_record_key"));
      }
    }
    return out;
  }

  /** Hudi 0.15's {@code HoodieBackedTableMetadata.readRecordIndex} of {@code keys}: "partition/fileId" by key. */
  private static Map<String, String> hudiRecordIndex(Path table, List<String> keys) throws IOException {
    Path file = HudiOracle.keysFile(keys);
    try {
      List<String> lines = HudiOracle.locate().run(List.of("mdt-index", "--table", table.toString(), "--keys-file",
          file.toString()));
      JsonNode doc = JSON.readTree(String.join("\n", lines));
      Map<String, String> out = new TreeMap<>();
      doc.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().get("partition").asText() + "/"
          + e.getValue().get("fileId").asText()));
      return out;
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
