package dev.sluice.api;

import static dev.sluice.api.TripFixture.trip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.timeline.avro.AvroContainer;
import dev.sluice.storage.FailingStorage;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Writes of table versions 8 and 9: {@code hoodie.properties} as Hudi 1.0.2 / 1.1.1 create it, the layout-2
 * timeline files (names with completion times that only grow, Avro commit metadata and inflight workload, empty
 * requested files), one log file per delta commit named after it, merges by the table's merge mode.
 */
class Version9WriteTest {
  private static final Pattern COMPLETED = Pattern.compile("^(\\d{17})_(\\d{17})\\.(commit|deltacommit)$");

  @TempDir
  Path dir;

  @Test
  void version9PropertiesAreHudi111s() throws IOException {
    TripFixture.create(dir.resolve("t"), TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(9).build(),
        Map.of());
    Properties p = properties(dir.resolve("t"));
    assertEquals("9", p.getProperty("hoodie.table.version"));
    assertEquals("9", p.getProperty("hoodie.table.initial.version"));
    assertEquals("2", p.getProperty("hoodie.timeline.layout.version"));
    assertEquals("timeline", p.getProperty("hoodie.timeline.path"));
    assertEquals("history", p.getProperty("hoodie.timeline.history.path"));
    assertEquals("EVENT_TIME_ORDERING", p.getProperty("hoodie.record.merge.mode"));
    assertEquals("ts", p.getProperty("hoodie.table.ordering.fields"));
    assertEquals("SIMPLE", p.getProperty("hoodie.table.keygenerator.type"));
    assertEquals("3761586722", p.getProperty("hoodie.table.checksum"), "CRC32 of '.trips'");
    for (String dropped : List.of("hoodie.table.precombine.field", "hoodie.compaction.payload.class",
        "hoodie.record.merge.strategy.id", "hoodie.compaction.record.merger.strategy",
        "hoodie.table.keygenerator.class")) {
      assertFalse(p.containsKey(dropped), dropped + " is not written at version 9: " + p);
    }
    assertTrue(Files.isDirectory(dir.resolve("t/.hoodie/timeline/history")));
    assertFalse(Files.exists(dir.resolve("t/.hoodie/archived")), "no layout-1 archive folder");
  }

  @Test
  void aTableCreatedWithoutAVersionIsVersion9() throws IOException {
    // no tableVersion(...) on the builder: the default, Hudi 1.1's version
    TableSpec spec = TableSpec.builder("trips").type(TableType.MERGE_ON_READ).recordKey("id").precombine("ts")
        .partitionBy("part").schema(TripFixture.SCHEMA).build();
    assertEquals(9, spec.tableVersion());
    Table t = Tables.create(dir.resolve("t").toString(), spec, Config.empty());
    assertEquals(9, t.tableVersion());
    Properties p = properties(dir.resolve("t"));
    assertEquals("9", p.getProperty("hoodie.table.version"));
    assertEquals("2", p.getProperty("hoodie.timeline.layout.version"));
    String instant = t.insert(TripFixture.trips(0, 3, 1, 1).iterator()).instantTime();
    try (Stream<Path> names = Files.list(dir.resolve("t/.hoodie/timeline"))) {
      List<String> completed = names.map(n -> n.getFileName().toString())
          .filter(n -> COMPLETED.matcher(n).matches()).toList();
      assertEquals(1, completed.size(), "one completed instant under .hoodie/timeline: " + completed);
      assertTrue(completed.get(0).startsWith(instant + "_") && completed.get(0).endsWith(".deltacommit"),
          completed.toString());
    }
    try (Stream<Path> top = Files.list(dir.resolve("t/.hoodie"))) {
      assertFalse(top.anyMatch(f -> f.getFileName().toString().startsWith(instant)),
          "no layout-1 instant file directly in .hoodie/");
    }
    try (CloseableIterator<GenericRecord> rows = Tables.open(dir.resolve("t").toString()).newScan().open()) {
      int n = 0;
      for (; rows.hasNext(); rows.next()) {
        n++;
      }
      assertEquals(3, n);
    }
  }

  @Test
  void version8PropertiesAreHudi102s() throws IOException {
    TripFixture.create(dir.resolve("t"), TripFixture.spec().tableVersion(8).mergeMode(MergeMode.COMMIT_TIME_ORDERING)
        .build(), Map.of());
    Properties p = properties(dir.resolve("t"));
    assertEquals("8", p.getProperty("hoodie.table.version"));
    assertEquals("8", p.getProperty("hoodie.table.initial.version"));
    assertEquals("COMMIT_TIME_ORDERING", p.getProperty("hoodie.record.merge.mode"));
    assertEquals("org.apache.hudi.common.model.OverwriteWithLatestAvroPayload",
        p.getProperty("hoodie.compaction.payload.class"));
    assertEquals("ce9acb64-bde0-424c-9b91-f6ebba25356d", p.getProperty("hoodie.record.merge.strategy.id"));
    assertEquals("ts", p.getProperty("hoodie.table.precombine.field"));
    assertFalse(p.containsKey("hoodie.table.ordering.fields"));
    assertEquals("SIMPLE", p.getProperty("hoodie.table.keygenerator.type"));
  }

  @ParameterizedTest
  @CsvSource({"MERGE_ON_READ, 9", "COPY_ON_WRITE, 9", "MERGE_ON_READ, 8", "COPY_ON_WRITE, 8"})
  void writesKeepLayout2AndReadBack(TableType type, int version) throws IOException {
    Path path = dir.resolve("t");
    Table t = TripFixture.create(path, TripFixture.spec().type(type).tableVersion(version).build(), Map.of());
    CommitResult first = t.insert(List.of(trip("a", 1, "p1", "a1", 1), trip("b", 1, "p1", "b1", 1),
        trip("c", 1, "p2", "c1", 1)).iterator());
    // event time: b's lower ordering value loses; c is deleted
    CommitResult second = t.upsert(List.of(trip("a", 5, "p1", "a5", 2), trip("b", 0, "p1", "b0", 2)).iterator());
    CommitResult third = t.delete(List.of(trip("c", 9, "p2", null, 0)).iterator());
    Map<String, GenericRecord> rows = TripFixture.rows(t);
    assertEquals(new TreeSet<>(List.of("a", "b")), rows.keySet());
    assertEquals("a5", rows.get("a").get("name").toString());
    assertEquals("b1", rows.get("b").get("name").toString(), "the lower ordering value lost (event time)");
    assertEquals(version, Tables.open(path.toString()).tableVersion());

    Path timeline = path.resolve(".hoodie/timeline");
    List<String> names = names(timeline);
    String action = type == TableType.MERGE_ON_READ ? "deltacommit" : "commit";
    String completion = "";
    for (CommitResult c : List.of(first, second, third)) {
      String time = c.instantTime();
      String requested = time + "." + action + ".requested";
      String inflight = type == TableType.MERGE_ON_READ ? time + ".deltacommit.inflight" : time + ".inflight";
      assertTrue(names.contains(requested) && names.contains(inflight), "requested and inflight kept: " + names);
      assertEquals(0, Files.size(timeline.resolve(requested)), "requested files are empty");
      GenericRecord workload = AvroContainer.readRequired(Files.readAllBytes(timeline.resolve(inflight)), inflight);
      assertEquals("HoodieCommitMetadata", workload.getSchema().getName(), "the inflight workload is Avro");
      String done = names.stream().filter(n -> n.startsWith(time + "_")).findFirst().orElseThrow();
      Matcher m = COMPLETED.matcher(done);
      assertTrue(m.matches() && m.group(3).equals(action), done);
      assertTrue(m.group(2).compareTo(time) > 0, "completion after request: " + done);
      assertTrue(m.group(2).compareTo(completion) > 0, "completion times grow: " + done + " after " + completion);
      completion = m.group(2);
      GenericRecord md = AvroContainer.readRequired(Files.readAllBytes(timeline.resolve(done)), done);
      assertEquals("org.apache.hudi.avro.model.HoodieCommitMetadata", md.getSchema().getFullName());
      assertEquals(null, md.get("version"), "Hudi 1.x leaves the version null");
      assertEquals(false, md.get("compacted"));
    }
    assertFalse(names.stream().anyMatch(n -> n.matches("\\d+\\.(commit|deltacommit)")), "no layout-1 names: " + names);
    try (Stream<Path> meta = Files.list(path.resolve(".hoodie"))) {
      assertFalse(meta.anyMatch(p -> p.getFileName().toString().matches("\\d+\\..*")),
          "nothing in the layout-1 place");
    }
    if (type == TableType.MERGE_ON_READ) {
      // one log file per delta commit, named after it, version 1
      List<String> logs = new ArrayList<>();
      try (Stream<Path> files = Files.walk(path.resolve("p1"))) {
        files.map(p -> p.getFileName().toString()).filter(n -> n.contains(".log.")).forEach(logs::add);
      }
      assertEquals(1, logs.size(), "the upsert wrote one log in p1: " + logs);
      assertTrue(logs.get(0).contains("_" + second.instantTime() + ".log.1_"), logs.get(0));
    }
  }

  /**
   * A write that fails as it publishes its completed file is rolled back at once: its base and log files deleted (a
   * log file of the failed delta commit's own name, not a command block), its instant files gone, a layout-2 rollback
   * instant ({@code <t>_<completion>.rollback}) in {@code .hoodie/timeline}, the rows as before.
   */
  @ParameterizedTest
  @CsvSource({"MERGE_ON_READ, deltacommit", "COPY_ON_WRITE, commit"})
  void aFailedWriteIsRolledBackByDeletingItsFiles(TableType type, String action) throws IOException {
    Path path = dir.resolve("t");
    FailingStorage failing = new FailingStorage(new LocalStorage());
    Table t = Tables.create(failing.storage(), path.toString(), TripFixture.spec().type(type).tableVersion(9).build(),
        Config.of(Map.of("hoodie.index.bloom.num_entries", "1000", "hoodie.parquet.small.file.limit", "0")));
    t.insert(List.of(trip("a", 1, "p1", "a1", 1), trip("b", 1, "p2", "b1", 1)).iterator());
    t.upsert(List.of(trip("a", 2, "p1", "a2", 1)).iterator());
    Map<String, GenericRecord> before = TripFixture.rows(t);
    List<String> filesBefore = dataFiles(path);
    failing.failOn(InterceptedStorage.Op.CREATE_EXCLUSIVE, 1, p -> p.matches(".*/timeline/\\d+_\\d+\\." + action));
    SluiceException e = assertThrows(SluiceException.class, () -> t.upsert(List.of(trip("a", 9, "p1", "never", 1),
        trip("c", 9, "p1", "never", 1)).iterator()));
    assertTrue(e.getMessage().contains("injected failure"), e.getMessage());
    failing.heal();
    assertEquals(filesBefore, dataFiles(path), "the failed write's data files are deleted");
    assertEquals(before.toString(), TripFixture.rows(t).toString());
    List<String> names = names(path.resolve(".hoodie/timeline"));
    assertEquals(1, names.stream().filter(n -> n.matches("\\d{17}_\\d{17}\\.rollback")).count(), names.toString());
    assertTrue(names.stream().anyMatch(n -> n.matches("\\d{17}\\.rollback\\.requested")), names.toString());
    assertEquals(2, names.stream().filter(n -> n.matches("\\d{17}_\\d{17}\\." + action)).count(),
        "only the two commits completed: " + names);
    assertEquals(6 + 3, names.size(), "two writes' three files each, the rollback's three: " + names);
    t.upsert(List.of(trip("c", 3, "p1", "c3", 1)).iterator());
    assertEquals("c3", TripFixture.rows(t).get("c").get("name").toString());
  }

  /** Rolling back the latest completed write of a version-9 table deletes the files named after it. */
  @ParameterizedTest
  @CsvSource({"MERGE_ON_READ", "COPY_ON_WRITE"})
  void rollingBackTheLatestCommitDeletesItsFiles(TableType type) throws IOException {
    Path path = dir.resolve("t");
    Table t = TripFixture.create(path, TripFixture.spec().type(type).tableVersion(9).build(),
        Map.of("hoodie.parquet.small.file.limit", "0"));
    t.insert(List.of(trip("a", 1, "p1", "a1", 1), trip("b", 1, "p1", "b1", 1)).iterator());
    Map<String, GenericRecord> before = TripFixture.rows(t);
    List<String> filesBefore = dataFiles(path);
    CommitResult last = t.upsert(List.of(trip("a", 2, "p1", "a2", 1), trip("c", 1, "p1", "c1", 1)).iterator());
    assertTrue(dataFiles(path).stream().anyMatch(f -> f.contains(last.instantTime())), dataFiles(path).toString());
    t.rollback(last.instantTime());
    assertEquals(filesBefore, dataFiles(path), "the rolled-back commit's files are deleted");
    assertEquals(before.toString(), TripFixture.rows(t).toString());
    assertFalse(names(path.resolve(".hoodie/timeline")).stream().anyMatch(n -> n.startsWith(last.instantTime())),
        "the commit's instant files are gone");
  }

  /**
   * Sluice keeps the metadata table on versions 8/9 (in Hudi 1.x's form, {@code MetadataTableVersion9WriteTest}):
   * built by the first write, kept by the next; partitions it does not maintain (Hudi 1.x builds column and partition
   * stats by default) are dropped, config first; {@code hoodie.metadata.enable=false} removes it, as a Hudi writer so
   * configured does, so that Hudi's readers never list or prune through a stale one.
   */
  @Test
  void aWriteKeepsTheMetadataTableAndDropsPartitionsItDoesNotMaintain() throws IOException {
    Path path = dir.resolve("t");
    Table t = TripFixture.create(path, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(9).build(),
        Map.of("hoodie.metadata.enable", "true"));
    t.insert(List.of(trip("a", 1, "p1", "a1", 1)).iterator());
    assertTrue(Files.isDirectory(path.resolve(".hoodie/metadata/.hoodie/timeline")), "built on version 9");
    assertEquals("files", properties(path).getProperty("hoodie.table.metadata.partitions"));
    // partitions another writer (Hudi 1.x) left
    Files.createDirectories(path.resolve(".hoodie/metadata/column_stats"));
    Path props = path.resolve(".hoodie/hoodie.properties");
    Files.writeString(props, Files.readString(props).replace("hoodie.table.metadata.partitions=files",
        "hoodie.table.metadata.partitions=column_stats,files,partition_stats"));
    t.upsert(List.of(trip("a", 2, "p1", "a2", 1)).iterator());
    assertTrue(Files.isDirectory(path.resolve(".hoodie/metadata/files")), "the metadata table is kept");
    assertFalse(Files.exists(path.resolve(".hoodie/metadata/column_stats")), "a partition Sluice does not keep goes");
    assertEquals("files", properties(path).getProperty("hoodie.table.metadata.partitions"), "and is unlisted");
    assertEquals("a2", TripFixture.rows(t).get("a").get("name").toString());

    Table off = Tables.open(path.toString(), Config.of(Map.of("hoodie.metadata.enable", "false",
        "hoodie.index.bloom.num_entries", "1000")));
    off.upsert(List.of(trip("a", 3, "p1", "a3", 1)).iterator());
    assertFalse(Files.exists(path.resolve(".hoodie/metadata")), "off removes it");
    assertEquals("", properties(path).getProperty("hoodie.table.metadata.partitions"), "and unlists it");
    assertEquals("a3", TripFixture.rows(off).get("a").get("name").toString());
  }

  private static List<String> dataFiles(Path table) throws IOException {
    try (Stream<Path> s = Files.walk(table)) {
      return s.filter(Files::isRegularFile).map(p -> table.relativize(p).toString())
          .filter(n -> !n.startsWith(".hoodie") && !n.contains(".hoodie_partition_metadata")).sorted().toList();
    }
  }

  private static List<String> names(Path folder) throws IOException {
    try (Stream<Path> s = Files.list(folder)) {
      return s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static Properties properties(Path table) throws IOException {
    Properties p = new Properties();
    try (var in = Files.newInputStream(table.resolve(".hoodie/hoodie.properties"))) {
      p.load(in);
    }
    return p;
  }
}
