package dev.sluice.api;

import static dev.sluice.api.TripFixture.trip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.avro.AvroContainer;
import dev.sluice.internal.timeline.lsm.LsmTimeline;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Archival, savepoint and restore on tables of versions 8 and 9: archival moves old instants into the LSM archived
 * timeline under Hudi 1.x's rules (stopping at a savepoint, cleans and rollbacks only behind archived commits), a
 * savepoint and a restore write layout-2 instant files with completion times, a restore rolls back by completion
 * order and leaves the table as it was at the savepoint.
 */
class Version9ArchiveRestoreTest {
  private static final Pattern COMPLETED = Pattern.compile("^(\\d{17})_(\\d{17})\\.(\\w+)$");

  @TempDir
  Path dir;

  private static Map<String, String> options() {
    // no automatic clean: the expectations count the writes' own instants (a clean would be archived with them); no
    // metadata table: its archival gate would hold the data table's archival back until its first compaction
    // (MetadataTableVersion9WriteTest covers both together)
    return Map.of("hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3", "hoodie.cleaner.commits.retained", "1",
        "hoodie.clean.automatic", "false", "hoodie.metadata.enable", "false");
  }

  private Table table(int version, TableType type, Map<String, String> options) {
    return TripFixture.create(dir.resolve("t"), TripFixture.spec().type(type).tableVersion(version).build(), options);
  }

  /** Upserts id-0..id-3 with amounts {@code round * 10 + n}; returns the commit time. */
  private static String round(Table t, int round) {
    List<GenericRecord> rows = new ArrayList<>();
    for (int n = 0; n < 4; n++) {
      rows.add(trip("id-" + n, round, "p" + (n % 2), "r" + round, round * 10.0 + n));
    }
    return t.upsert(rows.iterator()).instantTime();
  }

  private static Map<String, Double> amounts(Table t) {
    Map<String, Double> out = new TreeMap<>();
    TripFixture.rows(t).forEach((k, r) -> out.put(r.get("id").toString(), (Double) r.get("amount")));
    return out;
  }

  /** Requested time → completion time of the completed files of {@code action} in {@code timeline/}. */
  private Map<String, String> completedFiles(String action) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir.resolve("t/.hoodie/timeline"))) {
      for (Path f : files.toList()) {
        Matcher m = COMPLETED.matcher(f.getFileName().toString());
        if (m.matches() && m.group(3).equals(action)) {
          out.put(m.group(1), m.group(2));
        }
      }
    }
    return out;
  }

  private List<String> timelineNames() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("t/.hoodie/timeline"))) {
      return files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private LsmTimeline archive() {
    LocalStorage storage = new LocalStorage();
    String base = dir.resolve("t").toString();
    return LsmTimeline.of(storage, base, TableConfigStore.read(storage, base));
  }

  @ParameterizedTest
  @CsvSource({"8,COPY_ON_WRITE", "9,COPY_ON_WRITE", "9,MERGE_ON_READ"})
  void automaticArchivalMovesOldCommitsIntoTheLsmTimelineWithTheirCompletionTimes(int version, TableType type)
      throws IOException {
    Map<String, String> opts = new HashMap<>(options());
    // MoR: archival keeps the delta commits compaction scheduling counts (here only the latest)
    opts.put("hoodie.compact.inline.max.delta.commits", "1");
    Table t = table(version, type, opts);
    String action = type == TableType.MERGE_ON_READ ? "deltacommit" : "commit";
    Map<String, String> seen = new TreeMap<>();
    List<String> commits = new ArrayList<>();
    for (int r = 1; r <= 6; r++) {
      commits.add(round(t, r));
      seen.putAll(completedFiles(action));
    }
    // more than max (3) completed commits: archived down to min (2) after the 4th and the 6th commit
    assertEquals(commits.subList(4, 6), new ArrayList<>(completedFiles(action).keySet()));
    assertTrue(timelineNames().stream().noneMatch(n -> commits.subList(0, 4).stream().anyMatch(n::startsWith)),
        "every state file of the archived commits is gone: " + timelineNames());
    LsmTimeline lsm = archive();
    Map<String, String> archived = lsm.completionTimes();
    Map<String, String> expected = new TreeMap<>();
    commits.subList(0, 4).forEach(c -> expected.put(c, seen.get(c)));
    assertEquals(expected, archived, "archived with the completion times their file names had");
    assertEquals(2, lsm.latestManifest().files().size(), "one layer-0 file per archival");
    assertTrue(lsm.instants().stream().allMatch(a -> a.action().equals(action)));
    // archived commit metadata is the completed file's Avro
    GenericRecord md = AvroContainer.readRequired(lsm.instantsWithDetails().get(0).metadata().orElseThrow(), "archived");
    assertEquals("UPSERT", md.get("operationType").toString());
    Map<String, Double> latest = new TreeMap<>();
    for (int n = 0; n < 4; n++) {
      latest.put("id-" + n, 60.0 + n);
    }
    assertEquals(latest, amounts(t), "the table reads the same after archival");
    // nothing more to archive: preview and an explicit archival agree
    assertTrue(t.archivePreview().isEmpty());
    assertTrue(t.archive().archived().isEmpty());
  }

  @ParameterizedTest
  @CsvSource({"8", "9"})
  void archivalStopsAtTheFirstSavepointAndTakesRollbacksOnlyBehindArchivedCommits(int version) throws IOException {
    Table t = table(version, TableType.COPY_ON_WRITE, Map.of("hoodie.keep.min.commits", "2", "hoodie.keep.max.commits",
        "3", "hoodie.cleaner.commits.retained", "1", "hoodie.archive.automatic", "false", "hoodie.metadata.enable",
        "false"));
    List<String> commits = new ArrayList<>();
    commits.add(round(t, 1));
    String undone = round(t, 2);
    t.rollback(undone);
    String rollback = completedFiles("rollback").keySet().iterator().next();
    commits.add(round(t, 3));
    commits.add(round(t, 4));
    SavepointInfo sp = t.savepoint(java.util.Optional.of(commits.get(2)));
    assertFalse(sp.partitionFiles().isEmpty());
    commits.add(round(t, 5));
    commits.add(round(t, 6));
    // five commits, max 3, min 2: three could go, but the savepoint at the third stops archival before it
    List<String> preview = t.archivePreview().stream().map(InstantInfo::time).toList();
    assertEquals(List.of(commits.get(0), rollback, commits.get(1)), preview,
        "the commits before the savepoint, and the rollback requested before the newest of them");
    ArchiveInfo done = t.archive();
    assertEquals(preview, done.archived().stream().map(InstantInfo::time).toList());
    assertEquals(List.of(commits.get(0), rollback, commits.get(1)), archive().instants().stream()
        .map(LsmTimeline.Archived::instantTime).toList());
    assertEquals(List.of("commit", "rollback", "commit"), archive().instants().stream()
        .map(LsmTimeline.Archived::action).toList());
    assertTrue(completedFiles("savepoint").containsKey(commits.get(2)), "the savepoint stays active");
    assertEquals(commits.subList(2, 5), new ArrayList<>(completedFiles("commit").keySet()));
    assertTrue(t.archive().archived().isEmpty(), "nothing past the savepoint");

    // a rollback newer than every archived commit stays active
    t.deleteSavepoint(commits.get(2));
    String late = round(t, 7);
    t.rollback(late);
    t.archive();
    assertEquals(1, completedFiles("rollback").size(), "the newer rollback is still on the active timeline");
  }

  @ParameterizedTest
  @CsvSource({"8,COPY_ON_WRITE", "9,COPY_ON_WRITE", "9,MERGE_ON_READ"})
  void restoreToASavepointWritesLayout2InstantsAndReadsAsAtTheSavepoint(int version, TableType type)
      throws IOException {
    Map<String, String> opts = new HashMap<>(options());
    opts.put("hoodie.archive.automatic", "false");
    Table t = table(version, type, opts);
    round(t, 1);
    String saved = round(t, 2);
    Map<String, Double> atSavepoint = amounts(t);
    String action = type == TableType.MERGE_ON_READ ? "deltacommit" : "commit";
    t.savepoint(java.util.Optional.of(saved), "me", "before round 3");
    Map<String, String> savepoints = completedFiles("savepoint");
    assertEquals(List.of(saved), new ArrayList<>(savepoints.keySet()));
    String commitCompletion = completedFiles(action).get(saved);
    assertTrue(savepoints.get(saved).compareTo(commitCompletion) > 0,
        "the savepoint completes at a time of its own, after its commit: " + savepoints + " " + commitCompletion);
    assertTrue(timelineNames().contains(saved + ".savepoint.inflight"));
    // the commit and its savepoint share a requested time but not a completion time
    assertEquals(java.util.Optional.of(commitCompletion), t.timeline().completionTime(saved));
    TimelineStore store = new TimelineStore(new LocalStorage(), dir.resolve("t").toString());
    store.load();
    assertTrue(store.readCommitMetadata(Instant.completed(saved, type == TableType.MERGE_ON_READ ? Action.DELTACOMMIT
        : Action.COMMIT)).isPresent(), "the savepointed commit's file is found by its own completion time");
    String third = round(t, 3);
    String fourth = round(t, 4);
    List<GenericRecord> more = List.of(trip("id-9", 5, "p1", "new", 99.0));
    String fifth = t.insert(more.iterator()).instantTime();
    assertFalse(amounts(t).equals(atSavepoint));

    RestoreInfo info = t.restore(saved);
    assertEquals(atSavepoint, amounts(t), "reads as at the savepoint");
    assertEquals(List.of(fifth, fourth, third), info.instantsToRollback(), "newest completion first");
    Map<String, String> restores = completedFiles("restore");
    assertEquals(1, restores.size());
    String restore = restores.keySet().iterator().next();
    assertTrue(timelineNames().contains(restore + ".restore.requested"));
    assertTrue(timelineNames().contains(restore + ".restore.inflight"));
    GenericRecord plan = AvroContainer.readRequired(Files.readAllBytes(dir.resolve("t/.hoodie/timeline/" + restore
        + ".restore.requested")), "plan");
    assertEquals(saved, plan.get("savepointToRestoreTimestamp").toString());
    List<String> planned = new ArrayList<>();
    for (Object o : (List<?>) plan.get("instantsToRollback")) {
      planned.add(((GenericRecord) o).get("commitTime").toString());
    }
    assertEquals(List.of(fifth, fourth, third), planned);
    GenericRecord md = AvroContainer.readRequired(Files.readAllBytes(dir.resolve("t/.hoodie/timeline/" + restore + "_"
        + restores.get(restore) + ".restore")), "metadata");
    Map<?, ?> perInstant = (Map<?, ?>) md.get("hoodieRestoreMetadata");
    assertEquals(3, perInstant.size());
    for (Object v : perInstant.values()) {
      GenericRecord rb = (GenericRecord) ((List<?>) v).get(0);
      assertFalse(((Map<?, ?>) rb.get("partitionMetadata")).isEmpty(), "each rollback names what it deleted");
    }
    // the rolled-back instants and the restore's rollback instants are gone
    assertTrue(timelineNames().stream().noneMatch(n -> n.startsWith(third) || n.startsWith(fourth)
        || n.startsWith(fifth) || n.contains(".rollback")), timelineNames().toString());
    assertEquals(List.of(saved), new ArrayList<>(completedFiles("savepoint").keySet()), "the savepoint stays");
    // the table continues
    String next = round(t, 6);
    assertTrue(completedFiles(action).containsKey(next));
    t.deleteSavepoint(saved);
    assertTrue(completedFiles("savepoint").isEmpty());
    assertFalse(timelineNames().contains(saved + ".savepoint.inflight"));
  }

  /**
   * An incremental range that starts before the active timeline but after every archived write completed is planned
   * from the active timeline (the archive's completion times say nothing archived is in it); one that reaches an
   * archived write is refused, naming the fallback.
   */
  @ParameterizedTest
  @CsvSource({"9"})
  void incrementalRangesAreCheckedAgainstTheArchivedCompletionTimes(int version) throws IOException {
    Table t = table(version, TableType.COPY_ON_WRITE, options());
    List<String> commits = new ArrayList<>();
    for (int r = 1; r <= 6; r++) {
      commits.add(round(t, r));
    }
    Map<String, String> archived = archive().completionTimes();
    assertEquals(commits.subList(0, 4), new ArrayList<>(archived.keySet()));
    String lastArchived = archived.get(commits.get(3));
    Map<String, GenericRecord> rows = TripFixture.rows(t.newScan().incremental(lastArchived).open());
    assertEquals(4, rows.size(), rows.toString());
    for (GenericRecord r : rows.values()) {
      assertEquals("r6", r.get("name").toString(), "the latest commit's rows");
    }
    String beforeLast = archived.get(commits.get(2));
    SluiceException e = assertThrows(SluiceException.class, () -> t.newScan().incremental(beforeLast).open().close());
    assertTrue(e.getMessage().contains("archived"), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"9"})
  void aRestoreToAMissingSavepointIsABadRequest(int version) {
    Table t = table(version, TableType.COPY_ON_WRITE, options());
    String c = round(t, 1);
    SluiceException e = assertThrows(SluiceException.class, () -> t.restore(c));
    assertTrue(e.getMessage().contains("there is no savepoint at that instant"), e.getMessage());
  }
}
