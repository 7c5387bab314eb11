package dev.sluice.internal.basefile;

import static org.apache.parquet.filter2.predicate.FilterApi.and;
import static org.apache.parquet.filter2.predicate.FilterApi.binaryColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.eq;
import static org.apache.parquet.filter2.predicate.FilterApi.gt;
import static org.apache.parquet.filter2.predicate.FilterApi.intColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.longColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.ltEq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.bloom.BloomFilter;
import dev.sluice.internal.bloom.BloomFilterType;
import dev.sluice.internal.bloom.BloomFilters;
import dev.sluice.api.SluiceException;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaseFileReadTest {
  private static final int ROWS = 2000;
  private final Storage storage = new LocalStorage();

  @TempDir
  static Path shared;

  @TempDir
  Path dir;

  private static Path pristine;
  private static List<GenericRecord> written;

  private String path;

  /** Several small row groups: Parquet checks sizes every 100 rows at the earliest, so groups hold 100+ rows. */
  @BeforeAll
  static void writeFile() {
    pristine = shared.resolve("data.parquet");
    written = new ArrayList<>();
    try (BaseFileWriter w = BaseFileWriter.open(new LocalStorage(), pristine.toString(), TestRecords.WITH_META,
        BaseFileWriterOptions.defaults().withRowGroupSize(16 * 1024).withPageSize(4096))) {
      for (int i = 0; i < ROWS; i++) {
        GenericRecord r = TestRecords.record(i, "data.parquet");
        w.write(r);
        written.add(r);
      }
      w.finish();
    }
  }

  /** Each test gets its own copy, which it may damage. */
  @BeforeEach
  void copyFile() throws IOException {
    path = dir.resolve("data.parquet").toString();
    Files.copy(pristine, Path.of(path));
  }

  private List<BlockMetaData> rowGroups() throws IOException {
    try (ParquetFileReader r = ParquetFileReader.open(new StorageInputFile(storage, path))) {
      return r.getFooter().getBlocks();
    }
  }

  /** Overwrites column {@code column}'s chunk in row group {@code group} with junk. */
  private void smashColumn(int group, String column) throws IOException {
    ColumnChunkMetaData chunk = rowGroups().get(group).getColumns().stream()
        .filter(c -> c.getPath().toDotString().equals(column)).findFirst().orElseThrow();
    byte[] junk = new byte[(int) chunk.getTotalSize()];
    Arrays.fill(junk, (byte) 0xE7);
    try (FileChannel ch = FileChannel.open(Path.of(path), StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(junk), chunk.getStartingPos());
    }
  }

  private static Schema projection(String... fields) {
    SchemaBuilder.FieldAssembler<Schema> a = SchemaBuilder.record("everything").namespace("sluice.test").fields();
    for (String f : fields) {
      Schema.Field src = TestRecords.WITH_META.getField(f);
      a = a.name(f).type(src.schema()).noDefault();
    }
    return a.endRecord();
  }

  @Test
  void fileHasSeveralRowGroups() throws IOException {
    assertTrue(rowGroups().size() >= 4, "row groups: " + rowGroups().size());
  }

  @Test
  void projectionReturnsOnlyTheAskedFields() {
    Schema p = projection(MetaFields.RECORD_KEY, "l", "nested", "recs");
    try (BaseFileReader r = BaseFileReader.open(storage, path)) {
      List<GenericRecord> read = BaseFileRoundTripTest.readAll(r.read(p));
      assertEquals(ROWS, read.size());
      for (int i = 0; i < ROWS; i++) {
        GenericRecord got = read.get(i);
        assertEquals(p, got.getSchema());
        for (Schema.Field f : p.getFields()) {
          Schema.Field full = TestRecords.WITH_META.getField(f.name());
          assertEquals(0, GenericData.get().compare(written.get(i).get(f.name()),
              got.get(f.name()), full.schema()), f.name() + " of row " + i);
        }
      }
    }
  }

  @Test
  void projectionDoesNotDecodeOtherColumns() throws IOException {
    smashColumn(0, "s");
    try (BaseFileReader r = BaseFileReader.open(storage, path)) {
      assertEquals(ROWS, BaseFileRoundTripTest.readAll(r.read(projection(MetaFields.RECORD_KEY, "l"))).size());
      SluiceException e = assertThrows(SluiceException.class,
          () -> BaseFileRoundTripTest.readAll(r.read(projection("l", "s"))));
      assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
      assertTrue(e.getMessage().contains(path), e.getMessage());
    }
  }

  @Test
  void nestedRecordProjection() {
    Schema inner = SchemaBuilder.record("inner").namespace("sluice.test").fields()
        .requiredInt("x").endRecord();
    Schema p = SchemaBuilder.record("everything").namespace("sluice.test").fields()
        .name("nested").type(inner).noDefault().endRecord();
    try (BaseFileReader r = BaseFileReader.open(storage, path)) {
      List<GenericRecord> read = BaseFileRoundTripTest.readAll(r.read(p));
      for (int i = 0; i < ROWS; i++) {
        GenericRecord n = (GenericRecord) read.get(i).get("nested");
        assertEquals(((GenericRecord) written.get(i).get("nested")).get("x"), n.get("x"));
        assertEquals(1, n.getSchema().getFields().size());
      }
    }
  }

  @Test
  void missingProjectedFieldIsABadRequest() {
    Schema p = SchemaBuilder.record("everything").fields().requiredLong("nope").endRecord();
    try (BaseFileReader r = BaseFileReader.open(storage, path)) {
      SluiceException e = assertThrows(SluiceException.class, () -> r.read(p));
      assertTrue(e.getMessage().contains("nope") && e.getMessage().contains(path), e.getMessage());
    }
  }

  @Test
  void filterSkipsRowGroupsAndRows() throws IOException {
    List<BlockMetaData> groups = rowGroups();
    long firstGroupRows = groups.get(0).getRowCount();
    // the first row group holds rows 0..firstGroupRows-1, so its statistics rule out l > firstGroupRows + 10;
    // smashing its data proves the reader never touches it
    smashColumn(0, "s");
    smashColumn(0, "l");
    long bound = firstGroupRows + 10;
    FilterCompat.Filter filter = FilterCompat.get(gt(longColumn("l"), bound));
    try (BaseFileReader r = BaseFileReader.open(storage, path)) {
      List<GenericRecord> read = BaseFileRoundTripTest.readAll(r.read(projection("l", "s"), filter));
      assertEquals(ROWS - bound - 1, read.size());
      for (int k = 0; k < read.size(); k++) {
        long l = (Long) read.get(k).get("l");
        assertEquals(bound + 1 + k, l);
        assertEquals(written.get((int) l).get("s").toString(), read.get(k).get("s").toString());
      }
      assertThrows(SluiceException.class, () -> BaseFileRoundTripTest.readAll(r.read(projection("l", "s"))));
    }
  }

  @Test
  void filterMayUseColumnsOutsideTheProjection() {
    FilterCompat.Filter filter = FilterCompat.get(and(gt(longColumn("l"), 1234L), ltEq(longColumn("l"), 1240L)));
    Schema p = projection(MetaFields.RECORD_KEY);
    try (BaseFileReader r = BaseFileReader.open(storage, path)) {
      List<GenericRecord> read = BaseFileRoundTripTest.readAll(r.read(p, filter));
      List<String> keys = read.stream().map(g -> g.get(MetaFields.RECORD_KEY).toString()).toList();
      assertEquals(List.of("key-1235", "key-1236", "key-1237", "key-1238", "key-1239", "key-1240"), keys);
      assertEquals(p, read.get(0).getSchema());
      FilterCompat.Filter onKey = FilterCompat.get(eq(binaryColumn(MetaFields.RECORD_KEY), Binary.fromString("key-7")));
      List<GenericRecord> one = BaseFileRoundTripTest.readAll(r.read(projection("l"), onKey));
      assertEquals(1, one.size());
      assertEquals(7L, one.get(0).get("l"));
    }
  }

  @Test
  void filterOfTheWrongTypeIsABadRequest() {
    FilterCompat.Filter wrong = FilterCompat.get(gt(intColumn("l"), 5));
    try (BaseFileReader r = BaseFileReader.open(storage, path)) {
      SluiceException e = assertThrows(SluiceException.class, () -> r.read(projection("l"), wrong));
      assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
      assertTrue(e.getMessage().contains(path), e.getMessage());
    }
  }

  @Test
  void recordKeysAreTheWrittenKeysInOrder() {
    try (BaseFileReader r = BaseFileReader.open(storage, path); CloseableIterator<String> it = r.recordKeys()) {
      List<String> keys = new ArrayList<>();
      it.forEachRemaining(keys::add);
      assertEquals(written.stream().map(g -> g.get(MetaFields.RECORD_KEY).toString()).toList(), keys);
    }
  }

  @Test
  void recordKeysReadOnlyTheKeyColumn() throws IOException {
    smashColumn(1, "s");
    smashColumn(1, "l");
    try (BaseFileReader r = BaseFileReader.open(storage, path); CloseableIterator<String> it = r.recordKeys()) {
      int n = 0;
      while (it.hasNext()) {
        assertEquals(TestRecords.key(n++), it.next());
      }
      assertEquals(ROWS, n);
    }
  }

  @Test
  void recordKeysFoundAmongCandidatesAreThePresentOnesOnceInFileOrder() {
    // few candidates (the filtered path), with an absent key and a duplicate
    String a = TestRecords.key(10);
    String b = TestRecords.key(1500);
    try (BaseFileReader r = BaseFileReader.open(storage, path)) {
      assertEquals(List.of(a, b), r.recordKeysFoundAmong(List.of(b, "absent", a, b)));
      assertEquals(List.of(), r.recordKeysFoundAmong(List.of("absent", "key-")));
      assertEquals(List.of(), r.recordKeysFoundAmong(List.of()));
    }
    // many candidates (every page read): every other key plus absent ones and keys that extend present ones
    List<String> all = written.stream().map(g -> g.get(MetaFields.RECORD_KEY).toString()).toList();
    List<String> candidates = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < ROWS; i += 2) {
      candidates.add(all.get(i) + "0");
      candidates.add(all.get(i));
      candidates.add("absent-" + i);
      expected.add(all.get(i));
    }
    // keys extended by a digit are often present keys themselves ("key-1" + "0"): those count as found too
    java.util.Collections.reverse(candidates);
    try (BaseFileReader r = BaseFileReader.open(storage, path)) {
      List<String> found = r.recordKeysFoundAmong(candidates);
      List<String> want = all.stream().filter(candidates::contains).toList();
      assertEquals(want, found);
      assertTrue(found.containsAll(expected));
    }
  }

  @Test
  void recordKeysFoundAmongFewCandidatesSkipsTheRowGroupsTheirKeyStatisticsRuleOut() throws IOException {
    String wanted = TestRecords.key(10);
    Binary w = Binary.fromString(wanted);
    int excluded = -1;
    List<BlockMetaData> groups = rowGroups();
    for (int g = 0; g < groups.size() && excluded < 0; g++) {
      for (ColumnChunkMetaData c : groups.get(g).getColumns()) {
        if (c.getPath().toDotString().equals(MetaFields.RECORD_KEY)) {
          Binary min = (Binary) c.getStatistics().genericGetMin();
          Binary max = (Binary) c.getStatistics().genericGetMax();
          if (w.compareTo(min) < 0 || w.compareTo(max) > 0) {
            excluded = g;
          }
        }
      }
    }
    assertTrue(excluded >= 0, "some row group's key range leaves out " + wanted);
    smashColumn(excluded, MetaFields.RECORD_KEY);
    List<String> many = new ArrayList<>(List.of(wanted));
    for (int i = 0; i < BaseFileReader.KEY_FILTER_LIMIT; i++) {
      many.add("absent-" + i);
    }
    try (BaseFileReader r = BaseFileReader.open(storage, path)) {
      // the damaged key chunk is never read: its statistics rule the candidate out
      assertEquals(List.of(wanted), r.recordKeysFoundAmong(List.of(wanted, "absent")));
      // with more candidates than the filter takes, every key chunk is read, the damaged one too
      assertThrows(SluiceException.class, () -> r.recordKeysFoundAmong(many));
    }
  }

  @Test
  void recordKeysFoundAmongReadsPlainAndDictionaryEncodedKeyColumnsAlike() throws IOException {
    // a file as other writers make it (parquet-avro, dictionary on), each key on four rows so the dictionary stays;
    // Sluice itself always writes the key column plain (unique keys make a dictionary fall back anyway)
    String dict = dir.resolve("dict.parquet").toString();
    String plain = dir.resolve("plain.parquet").toString();
    try (org.apache.parquet.hadoop.ParquetWriter<GenericRecord> d =
            org.apache.parquet.avro.AvroParquetWriter.<GenericRecord>builder(new StorageOutputFile(storage, dict))
                .withSchema(TestRecords.WITH_META).withDictionaryEncoding(true).withPageSize(4096).build();
        BaseFileWriter p = BaseFileWriter.open(storage, plain, TestRecords.WITH_META,
            BaseFileWriterOptions.defaults().withRowGroupSize(16 * 1024).withPageSize(4096))) {
      for (int i = 0; i < ROWS; i++) {
        GenericRecord g = TestRecords.record(i / 4, "f.parquet");
        d.write(g);
        p.write(g);
      }
      p.finish();
    }
    try (ParquetFileReader d = ParquetFileReader.open(new StorageInputFile(storage, dict));
        ParquetFileReader p = ParquetFileReader.open(new StorageInputFile(storage, plain))) {
      assertTrue(keyColumn(d).hasDictionaryPage(), "the first file's keys are dictionary-encoded");
      assertTrue(!keyColumn(p).hasDictionaryPage(), "the second file's keys are not");
    }
    List<String> candidates = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < ROWS / 4; i++) {
      if (i % 3 == 0) {
        candidates.add(TestRecords.key(i));
        expected.add(TestRecords.key(i));
      }
      candidates.add("k" + i);
    }
    try (BaseFileReader d = BaseFileReader.open(storage, dict); BaseFileReader p = BaseFileReader.open(storage, plain)) {
      assertEquals(expected, d.recordKeysFoundAmong(candidates));
      assertEquals(expected, p.recordKeysFoundAmong(candidates));
    }
  }

  private static ColumnChunkMetaData keyColumn(ParquetFileReader reader) {
    for (ColumnChunkMetaData c : reader.getFooter().getBlocks().get(0).getColumns()) {
      if (c.getPath().toDotString().equals(MetaFields.RECORD_KEY)) {
        return c;
      }
    }
    throw new AssertionError("no key column");
  }

  @Test
  void keysAndPartitions() throws IOException {
    try (BaseFileReader r = BaseFileReader.open(storage, path, Files.size(Path.of(path)));
        CloseableIterator<KeyAndPartition> it = r.recordKeysAndPartitions()) {
      int n = 0;
      while (it.hasNext()) {
        assertEquals(new KeyAndPartition(TestRecords.key(n), "p" + (n % 3)), it.next());
        n++;
      }
      assertEquals(ROWS, n);
    }
  }

  @Test
  void truncatedFileIsABadTableNamingThePath() throws IOException {
    long size = Files.size(Path.of(path));
    try (FileChannel ch = FileChannel.open(Path.of(path), StandardOpenOption.WRITE)) {
      ch.truncate(size / 2);
    }
    SluiceException e = assertThrows(SluiceException.class, () -> BaseFileReader.open(storage, path));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains(path) && e.getMessage().contains("not a readable Parquet file"),
        e.getMessage());
  }

  @Test
  void tinyAndForeignFilesAreBadTables() throws IOException {
    for (String content : List.of("", "PAR1", "hello, this is not parquet at all, really not")) {
      Path p = dir.resolve("bad-" + content.length() + ".parquet");
      Files.writeString(p, content);
      SluiceException e = assertThrows(SluiceException.class, () -> BaseFileReader.open(storage, p.toString()));
      assertEquals(SluiceException.Kind.BAD_TABLE, e.kind(), e.getMessage());
      assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
    }
  }

  @Test
  void missingFileIsAStorageError() {
    String missing = dir.resolve("nope.parquet").toString();
    SluiceException e = assertThrows(SluiceException.class, () -> BaseFileReader.open(storage, missing));
    assertEquals(SluiceException.Kind.STORAGE, e.kind());
    assertTrue(e.getMessage().contains(missing), e.getMessage());
  }

  /** A footer-only file with the given key-value metadata, as a non-Avro writer would leave it. */
  private String footerOnlyFile(String name, Map<String, String> kv) throws IOException {
    return footerOnlyFile(name, "message m { optional binary _hoodie_record_key (STRING); required int64 n; }", kv);
  }

  private String footerOnlyFile(String name, String schema, Map<String, String> kv) throws IOException {
    String p = dir.resolve(name).toString();
    MessageType mt = MessageTypeParser.parseMessageType(schema);
    ParquetFileWriter w = new ParquetFileWriter(
        new StorageOutputFile(storage, p), mt, ParquetFileWriter.Mode.CREATE, 1024, 0);
    w.start();
    w.end(kv);
    return p;
  }

  @Test
  void legacyBloomKeyAndParquetOnlySchemaAreRead() throws IOException {
    BloomFilter bloom = BloomFilters.create(
        BloomFilterType.SIMPLE, 100, 0.001, 0);
    bloom.add("old-key");
    String p = footerOnlyFile("legacy.parquet", Map.of(FooterKeys.OLD_BLOOM_FILTER, bloom.serialize()));
    try (BaseFileReader r = BaseFileReader.open(storage, p)) {
      assertTrue(r.bloomFilter().orElseThrow().mightContain("old-key"));
      assertEquals(BloomFilterType.SIMPLE, r.bloomFilter().orElseThrow().type());
      Schema s = r.footer().schema();
      assertEquals(List.of(MetaFields.RECORD_KEY, "n"), s.getFields().stream().map(Schema.Field::name).toList());
      assertEquals(Schema.Type.LONG, s.getField("n").schema().getType());
      assertTrue(r.footer().minRecordKey().isEmpty());
    }
    String none = footerOnlyFile("none.parquet", Map.of());
    try (BaseFileReader r = BaseFileReader.open(storage, none)) {
      assertTrue(r.bloomFilter().isEmpty());
    }
  }

  @Test
  void damagedBloomFilterIsABadTable() throws IOException {
    String garbage = footerOnlyFile("garbage.parquet", Map.of(FooterKeys.BLOOM_FILTER, "AAAA",
        FooterKeys.BLOOM_FILTER_TYPE, "DYNAMIC_V0"));
    String unknownType = footerOnlyFile("unknown.parquet", Map.of(FooterKeys.BLOOM_FILTER, "AAAA",
        FooterKeys.BLOOM_FILTER_TYPE, "BUCKETED_V9"));
    for (String p : List.of(garbage, unknownType)) {
      try (BaseFileReader r = BaseFileReader.open(storage, p)) {
        SluiceException e = assertThrows(SluiceException.class, r::bloomFilter);
        assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
        assertTrue(e.getMessage().contains(p) && e.getMessage().contains("bloom filter"), e.getMessage());
      }
    }
  }

  @Test
  void keysNeedTheKeyColumn() throws IOException {
    String p = footerOnlyFile("nokeys.parquet", "message m { required int64 n; }", Map.of());
    try (BaseFileReader r = BaseFileReader.open(storage, p)) {
      SluiceException e = assertThrows(SluiceException.class, r::recordKeys);
      assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
      assertTrue(e.getMessage().contains(MetaFields.RECORD_KEY), e.getMessage());
    }
  }
}
