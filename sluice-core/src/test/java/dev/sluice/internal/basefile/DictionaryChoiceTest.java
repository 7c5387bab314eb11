package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.TripFixture;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DictionaryChoiceTest {
  private static final Schema SCHEMA = MetaFields.withMetaFields(TripFixture.SCHEMA);
  /** Small pages: the dictionary of a column of unique values overflows (and is abandoned) at once. */
  private static final BaseFileWriterOptions SMALL_PAGES =
      BaseFileWriterOptions.defaults().withRowGroupSize(1 << 20).withPageSize(4096);
  /** Columns whose values repeat: a dictionary pays for them. */
  private static final Set<String> REPEATING = Set.of("_hoodie_commit_time", "_hoodie_partition_path",
      "_hoodie_file_name", "ts", "part");
  /** Columns whose values are all different. */
  private static final Set<String> UNIQUE = Set.of("_hoodie_commit_seqno", "_hoodie_record_key", "id", "name",
      "amount");

  private final Storage storage = new LocalStorage();

  @TempDir
  Path dir;

  private static GenericRecord row(int i) {
    GenericRecord trip = TripFixture.trip(String.format("id-%06d", i), 7L, "p" + (i % 3), "name-" + i, i * 1.5);
    GenericData.Record r = new GenericData.Record(SCHEMA);
    r.put(MetaFields.COMMIT_TIME, "20260101000000000");
    r.put(MetaFields.COMMIT_SEQNO, "20260101000000000_0_" + i);
    r.put(MetaFields.RECORD_KEY, trip.get("id"));
    r.put(MetaFields.PARTITION_PATH, trip.get("part"));
    r.put(MetaFields.FILE_NAME, "f.parquet");
    for (Schema.Field f : TripFixture.SCHEMA.getFields()) {
      r.put(f.name(), trip.get(f.name()));
    }
    return r;
  }

  private Path write(String name, BaseFileWriterOptions options, List<GenericRecord> rows) {
    Path p = dir.resolve(name);
    try (BaseFileWriter w = BaseFileWriter.open(storage, p.toString(), SCHEMA, options)) {
      rows.forEach(w::write);
      w.finish();
    }
    return p;
  }

  private static List<GenericRecord> rows(int n) {
    List<GenericRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(row(i));
    }
    return out;
  }

  private List<GenericRecord> read(Path p) {
    List<GenericRecord> out = new ArrayList<>();
    try (BaseFileReader r = BaseFileReader.open(storage, p.toString());
        CloseableIterator<GenericRecord> it = r.read(SCHEMA)) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  private Set<String> plainIn(Path p) {
    try (BaseFileReader r = BaseFileReader.open(storage, p.toString())) {
      return r.columnsWithoutDictionary();
    }
  }

  @Test
  void columnsWhoseDictionaryParquetAbandonedAreFoundFromTheFooter() {
    Path p = write("a.parquet", SMALL_PAGES, rows(3000));
    assertEquals(UNIQUE, plainIn(p));
  }

  @Test
  void aRewriteWithThoseColumnsPlainGivesTheSameRowsEncodingsAndNoMoreBytes() throws IOException {
    List<GenericRecord> rows = rows(3000);
    Path first = write("a.parquet", SMALL_PAGES, rows);
    Path second = write("b.parquet", SMALL_PAGES.withPlainColumns(plainIn(first)), rows);
    assertEquals(read(first), read(second));
    assertEquals(UNIQUE, plainIn(second));
    assertTrue(Files.size(second) <= Files.size(first), Files.size(second) + " > " + Files.size(first));
  }

  @Test
  void mostRewritesSkipTheDictionaryOfThoseColumnsAndEveryEighthRetriesIt() {
    Path p = write("a.parquet", SMALL_PAGES, rows(3000));
    int retried = 0;
    try (BaseFileReader old = BaseFileReader.open(storage, p.toString())) {
      for (int i = 0; i < 400; i++) {
        Set<String> plain = DictionaryChoice.forRewrite(SMALL_PAGES, old, "file-" + i + "_0-0-0_2026.parquet")
            .plainColumns();
        if (plain.isEmpty()) {
          retried++;
        } else {
          assertEquals(UNIQUE, plain);
        }
      }
      BaseFileWriterOptions off = new BaseFileWriterOptions("snappy", 1 << 20, 4096, false,
          SMALL_PAGES.bloomType(), 1000, 1e-9, 10_000);
      assertEquals(off, DictionaryChoice.forRewrite(off, old, "file-1_0-0-0_2026.parquet"));
    }
    assertTrue(retried > 20 && retried < 80, "retried " + retried + " of 400");
  }

  @Test
  void copyOnWriteRewritesKeepEachColumnsEncodingOverManyUpserts() throws IOException {
    Table t = TripFixture.create(dir.resolve("t"), TripFixture.spec().build(),
        Map.of("hoodie.parquet.page.size", "4096", "hoodie.parquet.small.file.limit", "0"));
    t.insert(TripFixture.it(TripFixture.trips(0, 3000, 2, 1L)));
    for (int round = 0; round < 10; round++) {
      List<GenericRecord> updates = new ArrayList<>();
      for (GenericRecord r : TripFixture.trips(round * 7, 300, 2, 2L + round)) {
        updates.add(r);
      }
      t.upsert(TripFixture.it(updates));
    }
    List<Path> files;
    try (Stream<Path> s = Files.walk(dir.resolve("t"))) {
      files = s.filter(f -> f.toString().endsWith(".parquet") && !f.toString().contains(".hoodie")).toList();
    }
    assertTrue(files.size() >= 11, "files " + files);
    Set<String> unique = Set.of("_hoodie_commit_seqno", "_hoodie_record_key", "id", "name", "amount");
    for (Path f : files) {
      Set<String> plain = plainIn(f);
      assertEquals(unique, plain, f.toString());
      assertFalse(plain.contains("part"));
    }
    Map<String, GenericRecord> all = TripFixture.rows(t);
    assertEquals(3000, all.size());
    assertEquals(11L, (long) all.get("id-000063").get("ts"));
  }

  @Test
  void aNewFileWritesPlainTheTopLevelColumnsWithNoRepeatAmongItsFirstRecords() {
    List<GenericRecord> head = new ArrayList<>();
    for (int i = 0; i < DictionaryChoice.SAMPLE; i++) {
      // one repeated name at the very end keeps the name column's dictionary
      String name = i == DictionaryChoice.SAMPLE - 2 ? "name-1" : "name-" + i;
      head.add(TripFixture.trip(String.format("id-%06d", i), i % 5, "p" + (i % 3), i % 3 == 0 ? null : name, i * 1.5));
    }
    assertEquals(Set.of("id", "amount"), DictionaryChoice.forNewFile(SMALL_PAGES, head).plainColumns());
    assertEquals(Set.of(), DictionaryChoice.forNewFile(SMALL_PAGES, head.subList(0, 1000)).plainColumns());
    head.replaceAll(r -> {
      GenericRecord c = new GenericData.Record(TripFixture.SCHEMA);
      TripFixture.SCHEMA.getFields().forEach(f -> c.put(f.pos(), r.get(f.pos())));
      c.put("name", r.get("id") + "-n");
      return c;
    });
    assertEquals(Set.of("id", "name", "amount"), DictionaryChoice.forNewFile(SMALL_PAGES, head).plainColumns());
  }

  @Test
  void insertedFilesHaveTheEncodingsParquetWouldHaveChosen() throws IOException {
    Table t = TripFixture.create(dir.resolve("t"), TripFixture.spec().build(),
        Map.of("hoodie.parquet.page.size", "4096"));
    t.insert(TripFixture.it(TripFixture.trips(0, 6000, 2, 1L)));
    List<Path> files;
    try (Stream<Path> s = Files.walk(dir.resolve("t"))) {
      files = s.filter(f -> f.toString().endsWith(".parquet") && !f.toString().contains(".hoodie")).toList();
    }
    assertEquals(2, files.size(), files.toString());
    for (Path f : files) {
      assertEquals(UNIQUE, plainIn(f), f.toString());
    }
    assertEquals(6000, TripFixture.rows(t).size());
  }

  @Test
  void leavesOfNestedRecordsCountButNotListElements() {
    Schema nested = new Schema.Parser().parse("{\"type\": \"record\", \"name\": \"n\", \"fields\": ["
        + "{\"name\": \"id\", \"type\": \"string\"},"
        + "{\"name\": \"address\", \"type\": [\"null\", {\"type\": \"record\", \"name\": \"a\", \"fields\": ["
        + "  {\"name\": \"street\", \"type\": \"string\"}, {\"name\": \"zip\", \"type\": \"int\"}]}]},"
        + "{\"name\": \"tags\", \"type\": {\"type\": \"array\", \"items\": \"string\"}}]}");
    Schema address = nested.getField("address").schema().getTypes().get(1);
    List<GenericRecord> head = new ArrayList<>();
    for (int i = 0; i < DictionaryChoice.SAMPLE; i++) {
      GenericData.Record a = new GenericData.Record(address);
      a.put("street", i + " Main St");
      a.put("zip", i % 40);
      GenericData.Record r = new GenericData.Record(nested);
      r.put("id", "k" + i);
      r.put("address", i % 10 == 0 ? null : a);
      r.put("tags", List.of("t" + i));
      head.add(r);
    }
    assertEquals(Set.of("id", "address.street"), DictionaryChoice.forNewFile(SMALL_PAGES, head).plainColumns());
  }
}
