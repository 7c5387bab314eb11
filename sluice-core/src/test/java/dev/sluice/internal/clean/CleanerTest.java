package dev.sluice.internal.clean;

import dev.sluice.testing.EngineSettings;
import dev.sluice.internal.service.TableInternals;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.TripFixture;
import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.TimelineStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cleaner on real Copy-on-Write tables written through the Table API, automatic and on demand. */
class CleanerTest {
  @TempDir
  Path dir;

  private List<Instant> cleans(History h) {
    return TableInternals.timeline(h.table()).filter(i -> i.action() == Action.CLEAN).instants();
  }

  @Test
  void keepLatestCommitsKeepsWhatQueriesAsOfTheLastCommitsNeedAndDeletesOlderVersions() {
    History h = History.start(dir, Map.of("hoodie.cleaner.commits.retained", "3"));
    for (int i = 1; i < 8; i++) {
      h.updateP0();
    }
    List<String> c = h.commits();
    // ECTR is the 3rd newest commit (c5); the newest p0 version before it (c4) stays for queries started before c5
    assertEquals(new TreeSet<>(c.subList(4, 8)), h.baseFileInstants("p0"), "p0 versions left on disk");
    assertEquals(new TreeSet<>(List.of(c.get(0))), h.baseFileInstants("p1"), "p1's only (latest) version is kept");
    for (String commit : c.subList(4, 8)) {
      h.assertReadsAsOf(commit);
    }
    h.assertReadsLatest();
    assertTrue(cleans(h).stream().allMatch(Instant::isCompleted), "every clean completed: " + cleans(h));
    assertEquals(0, EngineSettings.cleaner(h.table().storage(), h.table().location(), h.table().options()).preview().fileCount(),
        "nothing left to clean");
  }

  @Test
  void aScanPlannedUpToNCommitsAgoStillReadsItsSnapshot() {
    History h = History.start(dir, Map.of("hoodie.cleaner.commits.retained", "2"));
    for (int i = 1; i < 4; i++) {
      h.updateP0();
    }
    String planned = h.commits().get(3);
    dev.sluice.internal.read.ScanPlan plan = dev.sluice.api.ScanAccess.plan(h.table().newScan());
    h.updateP0();
    h.updateP0();
    // two more commits, each followed by a clean: the planned snapshot's files are still there
    assertTrue(h.baseFileInstants("p0").contains(planned), h.baseFileInstants("p0").toString());
    Map<String, Double> read = new java.util.TreeMap<>();
    TripFixture.rows(plan.open()).forEach((id, r) -> read.put(id, (Double) r.get("amount")));
    assertEquals(h.expectedAt(planned), read);
    h.updateP0();
    assertFalse(h.baseFileInstants("p0").contains(planned), "one commit more and its p0 version is cleaned");
  }

  @Test
  void incrementalCleansLookAtThePartitionsWrittenSinceTheLastCleanAndMissNothing() {
    for (boolean incremental : new boolean[] {true, false}) {
      Path table = dir.resolve("incremental-" + incremental);
      History h = History.start(table, Map.of("hoodie.cleaner.commits.retained", "2",
          "hoodie.cleaner.incremental.mode", Boolean.toString(incremental)));
      h.update(true, true);
      h.update(true, true);
      h.update(true, false);
      h.update(true, false);
      h.update(true, false);
      List<String> c = h.commits();
      // ECTR = c4: p1's versions before its latest (c2) are superseded before the window, as are p0's before c3
      assertEquals(new TreeSet<>(List.of(c.get(2))), h.baseFileInstants("p1"), "incremental=" + incremental);
      assertEquals(new TreeSet<>(c.subList(3, 6)), h.baseFileInstants("p0"), "incremental=" + incremental);
      h.assertReadsAsOf(c.get(4));
    }
  }

  @Test
  void keepLatestFileVersionsKeepsNVersionsPerFileGroup() {
    History h = History.start(dir, Map.of("hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS",
        "hoodie.cleaner.fileversions.retained", "2"));
    for (int i = 1; i < 6; i++) {
      h.updateP0();
    }
    List<String> c = h.commits();
    assertEquals(new TreeSet<>(c.subList(4, 6)), h.baseFileInstants("p0"));
    assertEquals(new TreeSet<>(List.of(c.get(0))), h.baseFileInstants("p1"));
    h.assertReadsAsOf(c.get(4));
    h.assertReadsLatest();
    Instant last = cleans(h).get(cleans(h).size() - 1);
    GenericRecord plan = generic(h, Instant.requested(last.time(), Action.CLEAN));
    assertNull(plan.get("earliestInstantToRetain"), "file versions have no retained commit");
    assertEquals("KEEP_LATEST_FILE_VERSIONS", plan.get("policy").toString());
    assertEquals("", generic(h, last).get("earliestCommitToRetain").toString());
  }

  @Test
  void cleanInstantsAreHudisAvroPlanAndMetadata() throws IOException {
    History h = History.start(dir, Map.of("hoodie.cleaner.commits.retained", "2"));
    String c3Base = null;
    for (int i = 1; i < 5; i++) {
      h.updateP0();
      if (i == 2) {
        c3Base = TableInternals.fileSystemView(h.table()).latestBaseFiles("p0").get(0).path();
      }
    }
    List<String> c = h.commits();
    // after c4: ECTR = c3, c2 is the newest version before it, so the clean after c4 deletes c1's p0 file
    Instant clean = cleans(h).get(cleans(h).size() - 1);
    assertTrue(InstantTimes.isBefore(c.get(4), clean.time()), "the clean ran after the last commit");
    GenericRecord plan = generic(h, Instant.requested(clean.time(), Action.CLEAN));
    assertEquals(PLAN_SIGNATURE, signature(plan.getSchema()));
    GenericRecord retain = (GenericRecord) plan.get("earliestInstantToRetain");
    assertEquals(List.of(c.get(3), "commit", "COMPLETED"),
        List.of(retain.get("timestamp").toString(), retain.get("action").toString(), retain.get("state").toString()));
    assertEquals(c.get(4), plan.get("lastCompletedCommitTimestamp").toString());
    assertEquals("KEEP_LATEST_COMMITS", plan.get("policy").toString());
    assertEquals(2, plan.get("version"));
    Map<?, ?> files = (Map<?, ?>) plan.get("filePathsToBeDeletedPerPartition");
    assertEquals(1, files.size());
    List<?> p0 = (List<?>) files.values().iterator().next();
    assertEquals("p0", files.keySet().iterator().next().toString());
    assertEquals(1, p0.size());
    String deleted = ((GenericRecord) p0.get(0)).get("filePath").toString();
    assertTrue(deleted.endsWith("_" + c.get(1) + ".parquet"), deleted);
    assertFalse(Files.exists(Path.of(deleted)));
    assertTrue(Files.exists(Path.of(c3Base)), "the newest version before the retained commit stays");

    Path meta = dir.resolve(".hoodie");
    assertArrayEquals(Files.readAllBytes(meta.resolve(clean.time() + ".clean.requested")),
        Files.readAllBytes(meta.resolve(clean.time() + ".clean.inflight")), "the inflight file repeats the plan");
    GenericRecord md = generic(h, clean);
    assertEquals(METADATA_SIGNATURE, signature(md.getSchema()));
    assertEquals(clean.time(), md.get("startCleanTime").toString());
    assertEquals(1, md.get("totalFilesDeleted"));
    assertEquals(c.get(3), md.get("earliestCommitToRetain").toString());
    assertEquals(c.get(4), md.get("lastCompletedCommitTimestamp").toString());
    assertEquals(2, md.get("version"));
    GenericRecord part = (GenericRecord) ((Map<?, ?>) md.get("partitionMetadata")).values().iterator().next();
    String name = Path.of(deleted).getFileName().toString();
    assertEquals("p0", part.get("partitionPath").toString());
    assertEquals("KEEP_LATEST_COMMITS", part.get("policy").toString());
    assertEquals(List.of(name), strings(part.get("deletePathPatterns")));
    assertEquals(List.of(name), strings(part.get("successDeleteFiles")));
    assertEquals(List.of(), strings(part.get("failedDeleteFiles")));
    assertEquals(false, part.get("isPartitionDeleted"));
  }

  @Test
  void automaticCleaningOffLeavesVersionsUntilCleanIsRun() {
    History h = History.start(dir, Map.of("hoodie.clean.automatic", "false", "hoodie.cleaner.commits.retained", "2"));
    for (int i = 1; i < 5; i++) {
      h.updateP0();
    }
    assertEquals(5, h.baseFileInstants("p0").size());
    assertTrue(cleans(h).isEmpty());
    CleanResult r = EngineSettings.cleaner(h.table().storage(), h.table().location(), h.table().options()).clean();
    assertEquals(1, r.completed().size());
    assertEquals(2, r.filesDeleted());
    assertEquals(new TreeSet<>(h.commits().subList(2, 5)), h.baseFileInstants("p0"));
    h.assertReadsAsOf(h.commits().get(3));
  }

  @Test
  void cleansRunOnlyOnceMaxCommitsCompletedSinceTheLastClean() {
    History h = History.start(dir, Map.of("hoodie.cleaner.commits.retained", "1", "hoodie.clean.max.commits", "3"));
    for (int i = 1; i < 7; i++) {
      h.updateP0();
    }
    List<String> c = h.commits();
    List<Instant> cleans = cleans(h);
    assertEquals(2, cleans.size(), cleans.toString());
    // the third and the sixth commit trigger a clean
    assertTrue(InstantTimes.isBefore(c.get(2), cleans.get(0).time()) && InstantTimes.isBefore(cleans.get(0).time(), c.get(3)));
    assertTrue(InstantTimes.isBefore(c.get(5), cleans.get(1).time()) && InstantTimes.isBefore(cleans.get(1).time(), c.get(6)));
  }

  @Test
  void anUnfinishedCleanIsFinishedFromItsPlanBeforeANewOneIsPlanned() {
    History h = History.start(dir, Map.of("hoodie.clean.automatic", "false", "hoodie.cleaner.commits.retained", "1"));
    for (int i = 1; i < 4; i++) {
      h.updateP0();
    }
    Cleaner cleaner = EngineSettings.cleaner(h.table().storage(), h.table().location(), h.table().options());
    Instant requested = cleaner.schedule().orElseThrow();
    // a cleaner that died after moving the clean to inflight
    TimelineStore store = new TimelineStore(h.table().storage(), h.table().location());
    store.transitionToInflight(requested, store.read(requested));
    assertEquals(4, h.baseFileInstants("p0").size(), "nothing deleted yet");
    h.updateP0();
    CleanResult r = cleaner.clean();
    assertEquals(requested.time(), r.completed().get(0).startCleanTime());
    assertEquals(2, r.completed().size(), "the unfinished clean, then a new one");
    List<String> c = h.commits();
    assertEquals(new TreeSet<>(c.subList(3, 5)), h.baseFileInstants("p0"));
    assertTrue(cleans(h).stream().allMatch(Instant::isCompleted));
  }

  @Test
  void badSettingsFailBeforeAnythingIsWritten() {
    History h = History.start(dir, Map.of());
    for (Map<String, String> bad : List.of(Map.of("hoodie.cleaner.policy", "KEEP_SOME"),
        Map.of("hoodie.cleaner.commits.retained", "0"), Map.of("hoodie.keep.min.commits", "5",
            "hoodie.keep.max.commits", "5"))) {
      SluiceException e = assertThrows(SluiceException.class,
          () -> EngineSettings.services(Config.of(bad)));
      assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind(), e.getMessage());
    }
    int before = TableInternals.timeline(h.table()).instants().size();
    SluiceException e = assertThrows(SluiceException.class, () -> dev.sluice.api.Tables.open(h.table().location(),
        Config.of(Map.of("hoodie.cleaner.policy", "nope"))).upsert(List.<GenericRecord>of().iterator()));
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    assertEquals(before, TableInternals.timeline(h.table()).instants().size(), "the write did not start");
  }

  // Expected layouts, written down from the reference's HoodieCleanerPlan / HoodieCleanMetadata (section 10).
  static final String PLAN_SIGNATURE = "org.apache.hudi.avro.model.HoodieCleanerPlan{"
      + "earliestInstantToRetain:[null,HoodieActionInstant{timestamp:string,action:string,state:string}]=null,"
      + "lastCompletedCommitTimestamp:string=\"\",policy:string,"
      + "filesToBeDeletedPerPartition:[null,map<array<string>>]=null,version:[int,null]=1,"
      + "filePathsToBeDeletedPerPartition:[null,map<array<HoodieCleanFileInfo{filePath:[null,string]=null,"
      + "isBootstrapBaseFile:[null,boolean]=null}>>]=null,partitionsToBeDeleted:[null,array<string>]=null,"
      + "extraMetadata:[null,map<string>]=null}";
  static final String METADATA_SIGNATURE = "org.apache.hudi.avro.model.HoodieCleanMetadata{"
      + "startCleanTime:string,timeTakenInMillis:long,totalFilesDeleted:int,earliestCommitToRetain:string,"
      + "lastCompletedCommitTimestamp:string=\"\",partitionMetadata:map<HoodieCleanPartitionMetadata{"
      + "partitionPath:string,policy:string,deletePathPatterns:array<string>,successDeleteFiles:array<string>,"
      + "failedDeleteFiles:array<string>,isPartitionDeleted:[null,boolean]=null}>,version:[int,null]=1,"
      + "bootstrapPartitionMetadata:[null,map<HoodieCleanPartitionMetadata>]=null,extraMetadata:[null,map<string>]=null}";

  /** A compact rendering of a record schema: names, types, defaults; named types spelled out once. */
  static String signature(org.apache.avro.Schema s) {
    return s.getFullName() + body(s, new java.util.HashSet<>());
  }

  private static String body(org.apache.avro.Schema s, java.util.Set<String> seen) {
    seen.add(s.getFullName());
    StringBuilder b = new StringBuilder("{");
    for (org.apache.avro.Schema.Field f : s.getFields()) {
      if (b.length() > 1) {
        b.append(',');
      }
      b.append(f.name()).append(':').append(type(f.schema(), seen));
      if (f.hasDefaultValue()) {
        Object d = f.defaultVal();
        b.append('=').append(d == org.apache.avro.JsonProperties.NULL_VALUE ? "null"
            : d instanceof String str ? "\"" + str + "\"" : String.valueOf(d));
      }
    }
    return b.append('}').toString();
  }

  private static String type(org.apache.avro.Schema s, java.util.Set<String> seen) {
    return switch (s.getType()) {
      case UNION -> "[" + String.join(",", s.getTypes().stream().map(t -> type(t, seen)).toList()) + "]";
      case ARRAY -> "array<" + type(s.getElementType(), seen) + ">";
      case MAP -> "map<" + type(s.getValueType(), seen) + ">";
      case RECORD -> seen.contains(s.getFullName()) ? s.getName() : s.getName() + body(s, seen);
      default -> s.getType().getName();
    };
  }

  private static GenericRecord generic(History h, Instant instant) {
    byte[] bytes = new TimelineStore(h.table().storage(), h.table().location()).read(instant);
    try (DataFileReader<GenericRecord> r = new DataFileReader<>(new SeekableByteArrayInput(bytes),
        new GenericDatumReader<>())) {
      return r.next();
    } catch (IOException e) {
      throw new AssertionError("not a readable Avro container: " + instant, e);
    }
  }

  private static List<String> strings(Object list) {
    return ((List<?>) list).stream().map(Object::toString).toList();
  }
}
