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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compaction and clean on table versions 8 and 9: the plan, inflight and completed files in {@code .hoodie/timeline}
 * as Hudi 1.x writes them (the compaction plan in 1.x's schema, the compaction completing as
 * {@code <t>_<completion>.commit} with Avro commit metadata, the clean's Avro plan and metadata, completion times
 * that keep growing), the slices by completion time around a pending and a completed compaction, and reads of every
 * kind right before and after. Archival stays refused on these versions.
 */
class Version9TableServicesTest {
  private static final Pattern COMPLETED = Pattern.compile("^(\\d{17})_(\\d{17})\\.(\\w+)$");

  @org.junit.jupiter.api.io.TempDir
  Path dir;

  /**
   * Schedule and run a compaction of a Merge-on-Read table: the requested plan holds the slice's base file and its
   * logs (named after their own delta commits) in Hudi 1.x's schema, inflight is empty, and the compaction completes
   * as a commit with a completion time after every earlier one; the new base files are named after the compaction
   * instant; snapshot, read-optimized, time travel and incremental reads stay right.
   */
  @ParameterizedTest
  @ValueSource(ints = {8, 9})
  void mergeOnReadCompactionCompletesAsACommitWithItsCompletionTime(int version) throws IOException {
    Path path = dir.resolve("t");
    Table t = TripFixture.create(path, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(version).build(),
        Map.of("hoodie.compact.inline", "false", "hoodie.clean.automatic", "false"));
    CommitResult insert = t.insert(List.of(trip("a", 1, "p1", "a1", 1), trip("b", 1, "p1", "b1", 1),
        trip("c", 1, "p2", "c1", 1)).iterator());
    CommitResult upsert = t.upsert(List.of(trip("a", 2, "p1", "a2", 2), trip("c", 2, "p2", "c2", 2)).iterator());
    t.delete(List.of(trip("b", 3, "p1", null, 0)).iterator());
    Map<String, String> before = names(TripFixture.rows(t));
    assertEquals(Map.of("a", "a2", "c", "c2"), before);

    String compaction = t.compaction().scheduleNow().orElseThrow();
    Path timeline = path.resolve(".hoodie/timeline");
    Path requested = timeline.resolve(compaction + ".compaction.requested");
    GenericRecord plan = AvroContainer.readRequired(Files.readAllBytes(requested), requested.toString());
    assertEquals("org.apache.hudi.avro.model.HoodieCompactionPlan", plan.getSchema().getFullName());
    assertTrue(plan.getSchema().getField("missingSchedulePartitions") != null, "Hudi 1.x's plan schema");
    assertEquals(List.of(), plan.get("missingSchedulePartitions"), "nothing left out, written as []");
    assertEquals(2, plan.get("version"));
    List<?> ops = (List<?>) plan.get("operations");
    assertEquals(2, ops.size(), "one slice per partition has logs: " + ops);
    for (Object o : ops) {
      GenericRecord op = (GenericRecord) o;
      assertEquals(insert.instantTime(), op.get("baseInstantTime").toString());
      for (Object log : (List<?>) op.get("deltaFilePaths")) {
        // a log of a version-8/9 slice is named after the delta commit that wrote it, not after the slice's base
        assertFalse(log.toString().contains("_" + insert.instantTime() + ".log."), log.toString());
      }
    }
    assertTrue(Files.exists(path.resolve(".hoodie/timeline")) && !Files.exists(path.resolve(".hoodie/"
        + compaction + ".compaction.requested")), "nothing in the layout-1 place");
    assertEquals(before, names(TripFixture.rows(t)), "a pending compaction changes no read");

    CompactionInfo done = t.compaction().run(compaction);
    assertEquals(compaction, done.instantTime());
    List<String> names = files(timeline);
    assertTrue(names.contains(compaction + ".compaction.inflight"), names.toString());
    assertEquals(0, Files.size(timeline.resolve(compaction + ".compaction.inflight")), "inflight is empty");
    String completed = names.stream().filter(n -> n.startsWith(compaction + "_")).findFirst().orElseThrow();
    Matcher m = COMPLETED.matcher(completed);
    assertTrue(m.matches() && m.group(3).equals("commit"), completed);
    for (String other : names) {
      Matcher o = COMPLETED.matcher(other);
      if (o.matches() && !other.equals(completed)) {
        assertTrue(o.group(2).compareTo(m.group(2)) < 0, "the compaction completed last: " + other + " " + completed);
      }
    }
    GenericRecord md = AvroContainer.readRequired(Files.readAllBytes(timeline.resolve(completed)), completed);
    assertEquals("org.apache.hudi.avro.model.HoodieCommitMetadata", md.getSchema().getFullName());
    assertEquals(true, md.get("compacted"));
    assertEquals("COMPACT", md.get("operationType").toString());
    assertEquals(version, Tables.open(path.toString()).tableVersion());

    // the new slices: a base file at the compaction instant, no logs
    TableInspection in = t.inspect();
    for (String partition : List.of("p1", "p2")) {
      for (FileSliceInfo s : in.latestSlices(partition)) {
        assertEquals(compaction, s.baseInstant());
        assertTrue(s.baseFile().orElseThrow().fileName().endsWith("_" + compaction + ".parquet"), s.toString());
        assertEquals(List.of(), s.logFiles());
      }
    }
    assertEquals(before, names(TripFixture.rows(t)));
    assertEquals(before, names(TripFixture.rows(t.newScan().queryType(QueryType.READ_OPTIMIZED).open())),
        "read-optimized now sees the compacted rows");
    assertEquals(Map.of("a", "a2", "b", "b1", "c", "c2"),
        names(TripFixture.rows(t.newScan().asOf(upsert.instantTime()).open())), "time travel before the compaction");
    assertEquals(Map.of("a", "a2", "c", "c2"),
        names(TripFixture.rows(t.newScan().incremental(insert.instantTime()).open())),
        "an incremental read after the insert sees the upsert, not the compaction's rewrite as new rows");
  }

  /**
   * Slicing by completion time around a compaction: a delta commit that completes after the plan was requested
   * writes a log named after itself, which joins the slice the plan opened (not the compacted one); reads merge it
   * with the slice the plan compacts while the compaction is pending, and with the new base file after it.
   */
  @ParameterizedTest
  @ValueSource(ints = {8, 9})
  void aLogCompletedAfterThePlanBelongsToTheNewSlice(int version) throws IOException {
    Path path = dir.resolve("t");
    Table t = TripFixture.create(path, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(version)
        .build(), Map.of("hoodie.compact.inline", "false", "hoodie.clean.automatic", "false"));
    CommitResult insert = t.insert(List.of(trip("a", 1, "p1", "a1", 1), trip("b", 1, "p1", "b1", 1)).iterator());
    t.upsert(List.of(trip("a", 2, "p1", "a2", 2)).iterator());
    String compaction = t.compaction().scheduleNow().orElseThrow();
    CommitResult late = t.upsert(List.of(trip("b", 5, "p1", "b5", 5)).iterator());
    assertTrue(late.instantTime().compareTo(compaction) > 0);

    List<FileGroupInfo> groups = t.inspect().fileGroups("p1");
    assertEquals(1, groups.size());
    FileSliceInfo opened = groups.get(0).slices().get(0);
    assertEquals(compaction, opened.baseInstant(), "the plan opened a slice: " + groups);
    assertEquals(1, opened.logFiles().size());
    assertTrue(opened.logFiles().get(0).fileName().contains("_" + late.instantTime() + ".log.1_"),
        "the late log is named after its own delta commit: " + opened);
    assertEquals(insert.instantTime(), groups.get(0).slices().get(1).baseInstant());
    assertEquals(Map.of("a", "a2", "b", "b5"), names(TripFixture.rows(t)), "merged with the slice before");
    FileSliceInfo merged = t.inspect().latestSlices("p1").get(0);
    assertEquals(2, merged.logFiles().size(), "the snapshot reads both slices' logs: " + merged);

    t.compaction().run(compaction);
    FileSliceInfo after = t.inspect().latestSlices("p1").get(0);
    assertEquals(compaction, after.baseInstant());
    assertTrue(after.baseFile().isPresent());
    assertEquals(1, after.logFiles().size(), "the late log stays in the new slice: " + after);
    assertEquals(Map.of("a", "a2", "b", "b5"), names(TripFixture.rows(t)));
    assertEquals(Map.of("a", "a2", "b", "b1"),
        names(TripFixture.rows(t.newScan().queryType(QueryType.READ_OPTIMIZED).open())),
        "the compacted base holds what the plan read; the late update is only in its log");
  }

  /**
   * A compaction is planned after every completion time on the timeline, even one ahead of this clock (another
   * writer's): otherwise the log of that delta commit, which the plan compacts, would also join the slice the plan
   * opens and be read twice.
   */
  @ParameterizedTest
  @ValueSource(ints = {8, 9})
  void aCompactionIsPlannedAfterEveryCompletionTime(int version) throws IOException {
    Path path = dir.resolve("t");
    Table t = TripFixture.create(path, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(version)
        .build(), Map.of("hoodie.compact.inline", "false", "hoodie.clean.automatic", "false"));
    t.insert(List.of(trip("a", 1, "p1", "a1", 1)).iterator());
    CommitResult upsert = t.upsert(List.of(trip("a", 2, "p1", "a2", 2)).iterator());
    Path timeline = path.resolve(".hoodie/timeline");
    String done = files(timeline).stream().filter(n -> n.startsWith(upsert.instantTime() + "_")).findFirst()
        .orElseThrow();
    // the completion time a writer whose clock runs ten minutes ahead gave it
    String ahead = java.time.format.DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS")
        .format(java.time.LocalDateTime.now().plusMinutes(10));
    Files.move(timeline.resolve(done), timeline.resolve(upsert.instantTime() + "_" + ahead + ".deltacommit"));
    String compaction = t.compaction().scheduleNow().orElseThrow();
    assertTrue(compaction.compareTo(ahead) > 0, compaction + " is after " + ahead);
    FileSliceInfo opened = t.inspect().fileGroups("p1").get(0).slices().get(0);
    assertEquals(compaction, opened.baseInstant());
    assertEquals(List.of(), opened.logFiles(), "the compacted log stays in the slice the plan reads: " + opened);
    t.compaction().run(compaction);
    assertEquals(List.of(), t.inspect().latestSlices("p1").get(0).logFiles());
    assertEquals(Map.of("a", "a2"), names(TripFixture.rows(t)));
  }

  /**
   * Inline compaction after writes runs on versions 8/9 as on 6 ({@code hoodie.compact.inline} with
   * {@code hoodie.compact.inline.max.delta.commits}).
   */
  @ParameterizedTest
  @ValueSource(ints = {8, 9})
  void inlineCompactionRunsAfterWrites(int version) throws IOException {
    Path path = dir.resolve("t");
    Table t = TripFixture.create(path, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(version)
        .build(), Map.of("hoodie.compact.inline", "true", "hoodie.compact.inline.max.delta.commits", "2",
        "hoodie.clean.automatic", "false"));
    t.insert(List.of(trip("a", 1, "p1", "a1", 1)).iterator());
    t.upsert(List.of(trip("a", 2, "p1", "a2", 2)).iterator());
    List<String> commits = files(path.resolve(".hoodie/timeline")).stream()
        .filter(n -> n.matches("\\d{17}_\\d{17}\\.commit")).toList();
    assertEquals(1, commits.size(), "the second delta commit triggered a compaction");
    assertEquals(Map.of("a", "a2"), names(TripFixture.rows(t.newScan().queryType(QueryType.READ_OPTIMIZED).open())));
  }

  /**
   * A compaction that fails as it publishes its commit changes no read, and running it again completes it: the
   * partial output of the failed attempt is rolled back (a layout-2 rollback instant), one base file per file group
   * stays, at the compaction instant.
   */
  @ParameterizedTest
  @ValueSource(ints = {8, 9})
  void aCompactionThatFailedAtItsCommitRunsAgain(int version) throws IOException {
    Path path = dir.resolve("t");
    FailingStorage failing = new FailingStorage(new LocalStorage());
    Table t = Tables.create(failing.storage(), path.toString(), TripFixture.spec().type(TableType.MERGE_ON_READ)
        .tableVersion(version).build(), Config.of(Map.of("hoodie.index.bloom.num_entries", "1000",
        "hoodie.compact.inline", "false", "hoodie.clean.automatic", "false")));
    t.insert(List.of(trip("a", 1, "p1", "a1", 1), trip("b", 1, "p1", "b1", 1)).iterator());
    t.upsert(List.of(trip("a", 2, "p1", "a2", 2)).iterator());
    String compaction = t.compaction().scheduleNow().orElseThrow();
    failing.failOn(InterceptedStorage.Op.CREATE_EXCLUSIVE, 1, p -> p.matches(".*/timeline/\\d+_\\d+\\.commit"));
    SluiceException e = assertThrows(SluiceException.class, () -> t.compaction().run(compaction));
    assertTrue(e.getMessage().contains("injected failure"), e.getMessage());
    failing.heal();
    assertEquals(Map.of("a", "a2", "b", "b1"), names(TripFixture.rows(t)));
    assertEquals(Map.of("a", "a1", "b", "b1"),
        names(TripFixture.rows(t.newScan().queryType(QueryType.READ_OPTIMIZED).open())),
        "the failed attempt's base file is not read");
    assertEquals(List.of(compaction), t.compaction().pending());
    t.compaction().runPending();
    assertEquals(List.of(), t.compaction().pending());
    List<String> bases = baseFiles(path.resolve("p1"));
    assertEquals(1, bases.stream().filter(n -> n.endsWith("_" + compaction + ".parquet")).count(), bases.toString());
    assertEquals(Map.of("a", "a2", "b", "b1"),
        names(TripFixture.rows(t.newScan().queryType(QueryType.READ_OPTIMIZED).open())));
    assertTrue(files(path.resolve(".hoodie/timeline")).stream().anyMatch(n -> n.startsWith(compaction + "_")
        && n.endsWith(".commit")));
  }

  /** The background compactor ({@code sluice.compact.async}) runs the compactions writes schedule on versions 8/9. */
  @ParameterizedTest
  @ValueSource(ints = {8, 9})
  void backgroundCompactionRunsWhatWritesSchedule(int version) throws IOException {
    Path path = dir.resolve("t");
    try (Table t = TripFixture.create(path, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(version)
        .build(), Map.of("sluice.compact.async", "true", "hoodie.compact.inline.max.delta.commits", "1",
        "hoodie.clean.automatic", "false"))) {
      t.insert(List.of(trip("a", 1, "p1", "a1", 1)).iterator());
      t.upsert(List.of(trip("a", 2, "p1", "a2", 2)).iterator());
      assertTrue(t.compactor().orElseThrow().drain(java.time.Duration.ofSeconds(60)), "the compactor finished");
      assertTrue(t.compactor().orElseThrow().lastFailure().isEmpty());
    }
    Table reopened = Tables.open(path.toString());
    assertEquals(List.of(), reopened.compaction().pending());
    assertTrue(files(path.resolve(".hoodie/timeline")).stream().anyMatch(n -> n.matches("\\d{17}_\\d{17}\\.commit")));
    assertEquals(Map.of("a", "a2"),
        names(TripFixture.rows(reopened.newScan().queryType(QueryType.READ_OPTIMIZED).open())));
  }

  /**
   * A Copy-on-Write table cleaned after each write ({@code hoodie.clean.automatic}, KEEP_LATEST_COMMITS with one
   * commit retained): older base files are deleted, and the clean's files are Hudi's Avro plan (requested and
   * inflight) and Avro metadata (version 2) completed as {@code <t>_<completion>.clean}.
   */
  @ParameterizedTest
  @ValueSource(ints = {8, 9})
  void copyOnWriteIsCleanedAfterWrites(int version) throws IOException {
    Path path = dir.resolve("t");
    Table t = TripFixture.create(path, TripFixture.spec().tableVersion(version).build(),
        Map.of("hoodie.cleaner.commits.retained", "1"));
    for (int i = 1; i <= 4; i++) {
      t.upsert(List.of(trip("a", i, "p1", "a" + i, i)).iterator());
    }
    Path timeline = path.resolve(".hoodie/timeline");
    List<String> cleans = files(timeline).stream().filter(n -> n.endsWith(".clean")).toList();
    assertFalse(cleans.isEmpty(), "an automatic clean ran: " + files(timeline));
    for (String c : cleans) {
      Matcher m = COMPLETED.matcher(c);
      assertTrue(m.matches(), c);
      GenericRecord md = AvroContainer.readRequired(Files.readAllBytes(timeline.resolve(c)), c);
      assertEquals("org.apache.hudi.avro.model.HoodieCleanMetadata", md.getSchema().getFullName());
      assertEquals(2, md.get("version"));
      for (String state : List.of(".clean.requested", ".clean.inflight")) {
        Path p = timeline.resolve(m.group(1) + state);
        GenericRecord plan = AvroContainer.readRequired(Files.readAllBytes(p), p.toString());
        assertEquals("org.apache.hudi.avro.model.HoodieCleanerPlan", plan.getSchema().getFullName());
      }
    }
    // retained: the latest slice and the one a query as of the retained commit reads
    assertEquals(2, baseFiles(path.resolve("p1")).size(), baseFiles(path.resolve("p1")).toString());
    assertEquals(Map.of("a", "a4"), names(TripFixture.rows(t)));
  }

  /**
   * Clean of a Merge-on-Read table after a compaction (KEEP_LATEST_FILE_VERSIONS, one version): the compacted slice,
   * its base file and its logs, is deleted; a log completed after the plan stays with the new slice and is read.
   */
  @ParameterizedTest
  @ValueSource(ints = {8, 9})
  void mergeOnReadCleanAfterCompactionDeletesTheOldSlice(int version) throws IOException {
    Path path = dir.resolve("t");
    Table t = TripFixture.create(path, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(version)
        .build(), Map.of("hoodie.compact.inline", "false", "hoodie.clean.automatic", "false",
        "hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS", "hoodie.cleaner.fileversions.retained", "1"));
    CommitResult insert = t.insert(List.of(trip("a", 1, "p1", "a1", 1), trip("b", 1, "p1", "b1", 1)).iterator());
    CommitResult upsert = t.upsert(List.of(trip("a", 2, "p1", "a2", 2)).iterator());
    String compaction = t.compaction().scheduleNow().orElseThrow();
    CommitResult late = t.upsert(List.of(trip("b", 5, "p1", "b5", 5)).iterator());
    assertEquals(0, t.cleanPreview().fileCount(), "nothing to clean while the compaction reads the old slice");
    t.compaction().run(compaction);
    List<CleanInfo> cleaned = t.clean();
    assertEquals(1, cleaned.size());
    assertEquals(2, cleaned.get(0).totalFilesDeleted(), "the old base file and the upsert's log");
    List<String> left = dataFiles(path.resolve("p1"));
    assertEquals(2, left.size(), left.toString());
    assertTrue(left.stream().anyMatch(n -> n.endsWith("_" + compaction + ".parquet")), left.toString());
    assertTrue(left.stream().anyMatch(n -> n.contains("_" + late.instantTime() + ".log.1_")), left.toString());
    assertFalse(left.stream().anyMatch(n -> n.contains(insert.instantTime()) || n.contains(upsert.instantTime())));
    assertEquals(Map.of("a", "a2", "b", "b5"), names(TripFixture.rows(t)));
    String clean = files(path.resolve(".hoodie/timeline")).stream().filter(n -> n.endsWith(".clean")).findFirst()
        .orElseThrow();
    assertTrue(COMPLETED.matcher(clean).matches(), clean);
  }

  /** Clean and archival both run after writes: the cleans go into the LSM archive with the commits behind them. */
  @ParameterizedTest
  @ValueSource(ints = {8, 9})
  void cleanAndArchivalRunAfterWrites(int version) throws IOException {
    Path path = dir.resolve("t");
    Table t = TripFixture.create(path, TripFixture.spec().tableVersion(version).build(),
        // no metadata table, whose archival gate holds archival back until its first compaction
        // (MetadataTableVersion9WriteTest covers both together)
        Map.of("hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3", "hoodie.cleaner.commits.retained", "1",
            "hoodie.metadata.enable", "false"));
    for (int i = 1; i <= 6; i++) {
      t.upsert(List.of(trip("a", i, "p1", "a" + i, i)).iterator());
    }
    try (Stream<Path> history = Files.list(path.resolve(".hoodie/timeline/history"))) {
      assertTrue(history.findAny().isPresent(), "archived after the writes");
    }
    try (Stream<Path> active = Files.list(path.resolve(".hoodie/timeline"))) {
      long commits = active.filter(p -> p.getFileName().toString().matches("\\d{17}_\\d{17}\\.commit")).count();
      assertTrue(commits <= 3, "at most hoodie.keep.max.commits commits stay active: " + commits);
    }
    assertEquals(List.of("a6"), TripFixture.rows(t).values().stream().map(r -> r.get("name").toString()).toList());
  }

  private static Map<String, String> names(Map<String, GenericRecord> rows) {
    Map<String, String> out = new java.util.TreeMap<>();
    rows.forEach((k, r) -> out.put(k, String.valueOf(r.get("name"))));
    return out;
  }

  private static List<String> files(Path folder) throws IOException {
    try (Stream<Path> s = Files.list(folder)) {
      return s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static List<String> dataFiles(Path partition) throws IOException {
    List<String> out = new ArrayList<>();
    for (String n : files(partition)) {
      if (!n.startsWith(".hoodie_partition_metadata")) {
        out.add(n);
      }
    }
    return out;
  }

  private static List<String> baseFiles(Path partition) throws IOException {
    return files(partition).stream().filter(n -> n.endsWith(".parquet")).toList();
  }
}
