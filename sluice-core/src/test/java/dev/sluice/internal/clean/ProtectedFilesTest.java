package dev.sluice.internal.clean;

import dev.sluice.testing.EngineSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.TripFixture;
import dev.sluice.internal.archive.ArchiveLog;
import dev.sluice.api.Config;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineFixture;
import dev.sluice.internal.timeline.avro.AvroContainer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merge-on-Read slices with log files, a pending compaction, a replaced file group and a savepoint, laid down as
 * fixture files: what each policy deletes and what it must keep.
 *
 * <p>Group a: base 010 (+ log from 020), base 030 from a compaction (+ log from 040), base 050 from a compaction
 * (+ log from 060), then compaction 070 pending over the 050 slice, and a log written against it by 080.
 * Group b: one base file from 010. Group c: base 020, replaced by replacecommit 035. Group d: base 010, listed by
 * savepoint 010, and base 040.
 */
class ProtectedFilesTest {
  private static final Schema ENTRY = AvroContainer.resourceSchema(ArchiveLog.class, "ArchivedMetaEntry");
  private static final FileGroupId A = new FileGroupId("p0", "a-0");

  @TempDir
  Path dir;

  @BeforeEach
  void lay() {
    TripFixture.create(dir, TripFixture.spec().tableVersion(6).type(TableType.MERGE_ON_READ).build(), Map.of());
    TimelineFixture f = TimelineFixture.at(dir).partition("p0");
    f.completedDeltaCommit("010").dataFile("p0", base("a-0", "010"), 10).dataFile("p0", base("b-0", "010"), 10)
        .dataFile("p0", base("d-0", "010"), 10)
        .completedDeltaCommit("020").dataFile("p0", log("a-0", "010"), 5).dataFile("p0", base("c-0", "020"), 10)
        .completedCompaction("030").dataFile("p0", base("a-0", "030"), 10)
        .completedReplaceCommit("035", new FileGroupId("p0", "c-0"))
        .completedDeltaCommit("040").dataFile("p0", log("a-0", "030"), 5).dataFile("p0", base("d-0", "040"), 10)
        .completedCompaction("050").dataFile("p0", base("a-0", "050"), 10)
        .completedDeltaCommit("060").dataFile("p0", log("a-0", "050"), 5)
        .instantFile(Instant.requested("070", Action.COMPACTION), compactionPlan(A, "050"))
        .completedDeltaCommit("080").dataFile("p0", log("a-0", "070"), 5)
        .instantFile(Instant.inflight("010", Action.SAVEPOINT), new byte[0])
        .instantFile(Instant.completed("010", Action.SAVEPOINT), savepoint(base("d-0", "010")));
  }

  private static String base(String fileId, String instant) {
    return fileId + "_0-0-0_" + instant + ".parquet";
  }

  private static String log(String fileId, String baseInstant) {
    return "." + fileId + "_" + baseInstant + ".log.1_0-0-0";
  }

  private Set<String> files() throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve("p0"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".hoodie_partition")).collect(
          Collectors.toCollection(TreeSet::new));
    }
  }

  private CleanResult clean(Map<String, String> settings) {
    return EngineSettings.cleaner(new dev.sluice.storage.LocalStorage(), dir.toString(), Config.of(settings)).clean();
  }

  @Test
  void keepLatestCommitsKeepsTheRetainedWindowPendingCompactionAndSavepointedFiles() throws IOException {
    Set<String> before = files();
    // 7 completed commits, 2 retained: ECTR is 060 (before the pending compaction 070)
    CleanResult r = clean(Map.of("hoodie.cleaner.commits.retained", "2"));
    Set<String> deleted = new TreeSet<>(List.of(base("a-0", "010"), log("a-0", "010"), base("a-0", "030"),
        log("a-0", "030"), base("c-0", "020")));
    Set<String> expected = new TreeSet<>(before);
    expected.removeAll(deleted);
    assertEquals(expected, files());
    assertEquals(deleted.size(), r.filesDeleted());
    assertEquals("060", r.completed().get(0).earliestCommitToRetain());
  }

  @Test
  void keepLatestFileVersionsCountsThePendingCompactionsSliceAsAVersion() throws IOException {
    Set<String> before = files();
    CleanResult r = clean(Map.of("hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS",
        "hoodie.cleaner.fileversions.retained", "1"));
    // a: the compaction reads the 050 slice and writes the 070 one, both kept, everything older goes; c is replaced;
    // d keeps its newest version and the savepointed one
    Set<String> deleted = new TreeSet<>(List.of(base("a-0", "010"), log("a-0", "010"), base("a-0", "030"),
        log("a-0", "030"), base("c-0", "020")));
    Set<String> expected = new TreeSet<>(before);
    expected.removeAll(deleted);
    assertEquals(expected, files());
    assertTrue(files().containsAll(List.of(base("a-0", "050"), log("a-0", "050"), log("a-0", "070"))));
    assertEquals(deleted.size(), r.filesDeleted());
  }

  @Test
  void withoutTheSavepointTheOldVersionOfDIsDeleted() throws IOException {
    Files.delete(dir.resolve(".hoodie/010.savepoint"));
    Files.delete(dir.resolve(".hoodie/010.savepoint.inflight"));
    clean(Map.of("hoodie.cleaner.commits.retained", "2"));
    assertTrue(!files().contains(base("d-0", "010")) && files().contains(base("d-0", "040")), files().toString());
  }

  private static byte[] compactionPlan(FileGroupId group, String baseInstant) {
    Schema plan = member(ENTRY.getField("hoodieCompactionPlan").schema());
    Schema op = member(plan.getField("operations").schema()).getElementType();
    GenericRecord o = new GenericData.Record(op);
    o.put("baseInstantTime", baseInstant);
    o.put("fileId", group.fileId());
    o.put("partitionPath", group.partitionPath());
    o.put("deltaFilePaths", List.of(log(group.fileId(), baseInstant)));
    o.put("dataFilePath", base(group.fileId(), baseInstant));
    GenericRecord p = new GenericData.Record(plan);
    p.put("operations", List.of(o));
    p.put("version", 2);
    p.put("preserveHoodieMetadata", false);
    return AvroContainer.write(p);
  }

  private static byte[] savepoint(String file) {
    Schema md = member(ENTRY.getField("hoodieSavePointMetadata").schema());
    Schema part = md.getField("partitionMetadata").schema().getValueType();
    GenericRecord p = new GenericData.Record(part);
    p.put("partitionPath", "p0");
    p.put("savepointDataFile", List.of(file));
    GenericRecord r = new GenericData.Record(md);
    r.put("savepointedBy", "test");
    r.put("savepointedAt", 1L);
    r.put("comments", "");
    r.put("partitionMetadata", Map.of("p0", p));
    r.put("version", 1);
    return AvroContainer.write(r);
  }

  private static Schema member(Schema union) {
    return union.getTypes().stream().filter(s -> s.getType() != Schema.Type.NULL).findFirst().orElseThrow();
  }
}
