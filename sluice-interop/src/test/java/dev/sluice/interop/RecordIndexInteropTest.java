package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
    Table t = TripFixture.create(path, TripFixture.spec().tableVersion(6).build(), Map.of("hoodie.metadata.enable", "true",
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
    assertEquals(hudi, tags(ri, path, config, keys));
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
    // Sluice tagged through Hudi's record index (no fallback) and kept it: Hudi's reader finds Sluice's inserts and
    // the moved key where Sluice put them
    assertTrue(warnings.isEmpty(), warnings.toString());
    assertTrue(TableConfigStore.read(storage, path.toString()).metadataPartitions().contains("record_index"));
    assertEquals(afterSluice, hudiRecordIndex(path, new ArrayList<>(afterSluice.keySet())),
        "Hudi's record index after Sluice's upsert");

    // Spark upserts again through the record index Sluice kept
    spark.write(path, "upsert", named(TripFixture.trips(55, 15, 3, 4), "spark2-"), DDL, sparkOptions(), dir);
    Map<String, String> afterSpark = placement(Tables.open(path.toString(), Config.empty()));
    List<String> all = new ArrayList<>(afterSpark.keySet());
    all.add("id-999999");
    // Hudi's lookup and its read in one oracle JVM
    OracleBatch checks = HudiOracle.locate().batch();
    OracleBatch.Pending<Map<String, String>> endIndex = checks.metadataRecordIndex(path, all, "hbase");
    // Hudi 0.15's own reader (Java, metadata-table listing on): every key once, the rows Sluice reads
    OracleBatch.Pending<List<GenericRecord>> endRows = checks.read(path, "snapshot", Optional.empty(), true);
    checks.run();
    assertEquals(afterSpark, endIndex.get(), "Hudi's record index after both writers: every key, where it is");
    Map<String, String> sluiceRows = new TreeMap<>();
    TripFixture.rows(Tables.open(path.toString(), Config.empty())).forEach((k, r) -> sluiceRows.put(k,
        r.get("name") + "@" + r.get("ts") + "/" + r.get("part")));
    List<GenericRecord> hudiRows = endRows.get();
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

  /**
   * Hudi 0.15's Java client builds and keeps the record index too (with {@code hoodie.metadata.record.index.enable};
   * it cannot tag with it, its index stays BLOOM): its records sit in the shards' log blocks. Sluice tags through
   * them, upserts, and the Java client writes on.
   */
  @ParameterizedTest
  @ValueSource(strings = {"cow", "mor"})
  void theJavaClientsRecordIndexTagsSluiceUpsertsWithoutDuplicates(String type) throws IOException {
    Path path = dir.resolve(type);
    HudiOracle oracle = HudiOracle.locate();
    OracleTableSpec.Builder spec = OracleTableSpec.builder("trips", TripFixture.SCHEMA).partitionBy("part");
    Map<String, String> conf = Map.of("hoodie.metadata.record.index.enable", "true",
        "hoodie.metadata.record.index.min.filegroup.count", "4", "hoodie.metadata.record.index.max.filegroup.count",
        "4", "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000");
    // the writes leave ids 0 to 39 (checked below); Hudi's create, writes and lookup run in one oracle JVM
    List<String> keys = ids(0, 40);
    keys.add("id-999999");
    OracleBatch hudiSide = oracle.batch();
    hudiSide.create(path, (type.equals("mor") ? spec.mergeOnRead() : spec.copyOnWrite()).build(), List.of());
    hudiSide.write(path, "insert", TripFixture.SCHEMA, TripFixture.trips(0, 30, 3, 1), conf);
    hudiSide.write(path, "upsert", TripFixture.SCHEMA, named(TripFixture.trips(20, 20, 3, 2), "java1-"), conf);
    OracleBatch.Pending<Map<String, String>> lookup = hudiSide.metadataRecordIndex(path, keys, "hbase");
    hudiSide.run();
    TableConfig config = TableConfigStore.read(storage, path.toString());
    assertEquals(List.of("files", "record_index"), config.metadataPartitions());

    Map<String, String> written = placement(Tables.open(path.toString(), Config.empty()));
    assertEquals(40, written.size());
    assertEquals(keys.subList(0, 40), new ArrayList<>(written.keySet()));
    Map<String, String> hudi = lookup.get();
    assertEquals(written, hudi);
    Index ri = Indexes.of(storage, new IndexedTable(path.toString(), config, true),
        new IndexSettings("RECORD_INDEX", true, false, 2));
    assertEquals(hudi, tags(ri, path, config, keys));
    assertTrue(ri.filesOpened() == 0, "the Java client's shards are log blocks only: no base file opened");
    assertTrue(warnings.isEmpty(), warnings.toString());

    Table sluice = Tables.open(path.toString(), Config.of(Map.of("hoodie.index.type", "RECORD_INDEX",
        "hoodie.metadata.record.index.enable", "true")));
    sluice.upsert(inSchema(named(TripFixture.trips(35, 10, 3, 3), "sluice-"), sluice.schema()).iterator());
    Map<String, String> afterSluice = placement(Tables.open(path.toString(), Config.empty()));
    assertEquals(45, afterSluice.size());
    for (int i = 35; i < 40; i++) {
      String k = String.format("id-%06d", i);
      assertEquals(hudi.get(k), afterSluice.get(k), "updated in the file group Hudi's index names: " + k);
    }
    // tagged through the Java client's index and kept it: Hudi's reader finds every key where Sluice left it
    assertTrue(warnings.isEmpty(), warnings.toString());
    // Hudi's lookup, its next write (which leaves ids 0 to 49), lookup and read: one oracle JVM
    OracleBatch next = oracle.batch();
    OracleBatch.Pending<Map<String, String>> afterSluiceLookup = next.metadataRecordIndex(path,
        new ArrayList<>(afterSluice.keySet()), "hbase");
    // the Java client writes on with the record index on: it keeps the index Sluice kept (its writer with the index
    // off fails on such a table in Hudi 0.15: it drops the partition, then still writes its records to it)
    next.write(path, "upsert", TripFixture.SCHEMA, named(TripFixture.trips(0, 50, 3, 4), "java2-"), conf);
    OracleBatch.Pending<Map<String, String>> endLookup = next.metadataRecordIndex(path, ids(0, 50), "hbase");
    OracleBatch.Pending<List<GenericRecord>> endRows = next.read(path, "snapshot", Optional.empty(), true);
    next.run();
    assertEquals(afterSluice, afterSluiceLookup.get());
    Map<String, String> end = placement(Tables.open(path.toString(), Config.empty()));
    assertEquals(50, end.size());
    assertEquals(ids(0, 50), new ArrayList<>(end.keySet()));
    assertEquals(end, endLookup.get(), "Hudi's index after its own write");
    List<GenericRecord> rows = endRows.get();
    Map<String, String> byHudi = new TreeMap<>();
    for (GenericRecord r : rows) {
      assertEquals(null, byHudi.put(r.get("id").toString(), r.get("name") + "@" + r.get("ts")), "duplicate " + r);
    }
    assertEquals(50, rows.size());
    assertEquals("java2-id-000044@4", byHudi.get("id-000044"));
  }

  /**
   * Hudi 0.15's Java client, asked for the record index on a table that has data, bulk-inserts every key into one
   * file group: its own reader (which routes keys by hash) then misses most keys. Sluice sees the shards are not
   * hashed and tags as GLOBAL_SIMPLE instead of turning the missed keys into duplicates.
   */
  @Test
  void aRecordIndexTheJavaClientBuiltOverExistingDataIsNotTrusted() throws IOException {
    Path path = dir.resolve("late");
    HudiOracle oracle = HudiOracle.locate();
    Map<String, String> conf = new HashMap<>(Map.of("hoodie.metadata.record.index.enable", "false",
        "hoodie.metadata.record.index.min.filegroup.count", "4", "hoodie.metadata.record.index.max.filegroup.count",
        "4", "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000"));
    // the writes leave ids 0 to 34 (checked below); Hudi's create, writes and lookup run in one oracle JVM
    List<String> keys = ids(0, 35);
    OracleBatch hudiSide = oracle.batch();
    hudiSide.create(path, OracleTableSpec.builder("trips", TripFixture.SCHEMA).partitionBy("part").build(), List.of());
    hudiSide.write(path, "insert", TripFixture.SCHEMA, TripFixture.trips(0, 30, 3, 1), conf);
    conf.put("hoodie.metadata.record.index.enable", "true");
    hudiSide.write(path, "upsert", TripFixture.SCHEMA, TripFixture.trips(25, 10, 3, 2), conf);
    OracleBatch.Pending<Map<String, String>> lookup = hudiSide.metadataRecordIndex(path, keys, "hbase");
    hudiSide.run();
    TableConfig config = TableConfigStore.read(storage, path.toString());
    assertEquals(List.of("files", "record_index"), config.metadataPartitions());

    Map<String, String> placement = placement(Tables.open(path.toString(), Config.empty()));
    assertEquals(keys, new ArrayList<>(placement.keySet()));
    assertEquals(35, keys.size());
    Map<String, String> hudi = lookup.get();
    assertTrue(hudi.size() < keys.size(), "Hudi's own reader misses keys of its mis-sharded index: " + hudi.size());
    Index ri = Indexes.of(storage, new IndexedTable(path.toString(), config, true),
        new IndexSettings("RECORD_INDEX", true, false, 2));
    assertEquals(placement, tags(ri, path, config, keys), "every existing key found");
    assertTrue(warnings.stream().anyMatch(w -> w.contains("not sharded by Hudi's key hash")), warnings.toString());
  }

  private Map<String, String> tags(Index index, Path path, TableConfig config, List<String> keys) {
    FileSystemView view = MetadataTables.view(storage, path.toString(), new TimelineStore(storage, path.toString())
        .load(), config, true);
    List<WriteRecord> probe = new ArrayList<>();
    for (String k : keys) {
      probe.add(new WriteRecord(k, "p" + (Integer.parseInt(k.substring(3)) % 3), null, 0L,
          WriteRecord.DeleteKind.NONE));
    }
    Map<String, String> tagged = new TreeMap<>();
    for (TaggedRecord tr : index.tag(probe, view)) {
      tr.location().ifPresent(l -> tagged.put(tr.record().key(), l.partitionPath() + "/" + l.fileId()));
    }
    return tagged;
  }

  /** {@code id-000000}-style keys of ids {@code from} to {@code from + count - 1}, sorted. */
  private static List<String> ids(int from, int count) {
    List<String> out = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      out.add(String.format("id-%06d", i));
    }
    return out;
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
            + fileId(r.get("_hoodie_file_name").toString()));
        assertEquals(null, prev, "duplicate key " + r.get("_hoodie_record_key"));
      }
    }
    return out;
  }

  /** The file id in a row's {@code _hoodie_file_name}: a base file's name, a log file's, or (log rows) the id. */
  private static String fileId(String name) {
    String n = name.startsWith(".") ? name.substring(1) : name;
    return n.split("_")[0];
  }

  /** Hudi 0.15's {@code HoodieBackedTableMetadata.readRecordIndex} of {@code keys}, HBase's reader: partition/fileId. */
  private static Map<String, String> hudiRecordIndex(Path table, List<String> keys) {
    return HudiOracle.locate().metadataRecordIndex(table, keys, "hbase");
  }

}
