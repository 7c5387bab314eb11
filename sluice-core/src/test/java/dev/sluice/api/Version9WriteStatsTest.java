package dev.sluice.api;

import static dev.sluice.api.TripFixture.trip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.timeline.avro.AvroContainer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write stats of versions 8/9 name the base file a new one replaces ({@code prevBaseFile}), as Hudi 1.x's writers
 * record it for a Copy-on-Write merge and a compaction; a new file group and a log append name none; version 6's JSON
 * commit metadata stays as Hudi 0.15 writes it, without the field.
 */
class Version9WriteStatsTest {
  @TempDir
  Path dir;

  @Test
  void aCopyOnWriteMergeNamesTheBaseFileItReplaces() throws IOException {
    Path path = dir.resolve("cow");
    Table t = TripFixture.create(path, TripFixture.spec().type(TableType.COPY_ON_WRITE).tableVersion(9).build(), Map.of());
    CommitResult insert = t.insert(List.of(trip("a", 1, "p1", "a1", 1), trip("b", 1, "p2", "b1", 1)).iterator());
    String replaced = onlyBaseFile(path.resolve("p1"));
    CommitResult upsert = t.upsert(List.of(trip("a", 2, "p1", "a2", 2)).iterator());

    GenericRecord created = onlyStat(path, insert.instantTime(), "commit", "p1");
    assertNull(created.get("prevBaseFile"), "a new file group replaces nothing");
    GenericRecord merged = onlyStat(path, upsert.instantTime(), "commit", "p1");
    assertEquals(insert.instantTime(), merged.get("prevCommit").toString());
    assertEquals(replaced, merged.get("prevBaseFile").toString());
    assertNotEquals(replaced, Path.of(merged.get("path").toString()).getFileName().toString());
    // the table reads through it as before
    assertEquals("a2", TripFixture.rows(t).get("a").get("name").toString());
  }

  @Test
  void aCompactionNamesTheBaseFileOfItsSliceAndALogAppendNone() throws IOException {
    Path path = dir.resolve("mor");
    Table t = TripFixture.create(path, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(9).build(),
        Map.of("hoodie.compact.inline", "false", "hoodie.clean.automatic", "false"));
    t.insert(List.of(trip("a", 1, "p1", "a1", 1), trip("b", 1, "p1", "b1", 1)).iterator());
    String base = onlyBaseFile(path.resolve("p1"));
    CommitResult upsert = t.upsert(List.of(trip("a", 2, "p1", "a2", 2)).iterator());
    assertNull(onlyStat(path, upsert.instantTime(), "deltacommit", "p1").get("prevBaseFile"), "a log append");

    String compaction = t.compaction().scheduleNow().orElseThrow();
    t.compaction().run(compaction);
    GenericRecord compacted = onlyStat(path, compaction, "commit", "p1");
    assertEquals(base, compacted.get("prevBaseFile").toString());
    assertEquals("a2", TripFixture.rows(t).get("a").get("name").toString());
  }

  @Test
  void version6CommitMetadataHasNoPrevBaseFile() throws IOException {
    Path path = dir.resolve("v6");
    Table t = TripFixture.create(path, TripFixture.spec().type(TableType.COPY_ON_WRITE).tableVersion(6).build(),
        Map.of());
    t.insert(List.of(trip("a", 1, "p1", "a1", 1)).iterator());
    CommitResult upsert = t.upsert(List.of(trip("a", 2, "p1", "a2", 2)).iterator());
    String json = Files.readString(path.resolve(".hoodie").resolve(upsert.instantTime() + ".commit"));
    assertTrue(json.contains("\"prevCommit\""), json);
    assertFalse(json.contains("prevBaseFile"), json);
  }

  private static String onlyBaseFile(Path partition) throws IOException {
    try (Stream<Path> files = Files.list(partition)) {
      List<String> bases = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".parquet")).toList();
      assertEquals(1, bases.size(), bases.toString());
      return bases.get(0);
    }
  }

  /** The one write stat of {@code partition} in the completed {@code action} of {@code instant} (layout 2, Avro). */
  private static GenericRecord onlyStat(Path table, String instant, String action, String partition)
      throws IOException {
    Path timeline = table.resolve(".hoodie/timeline");
    Path done;
    try (Stream<Path> files = Files.list(timeline)) {
      done = files.filter(p -> p.getFileName().toString().matches(instant + "_\\d{17}\\." + action)).findFirst()
          .orElseThrow();
    }
    GenericRecord md = AvroContainer.readRequired(Files.readAllBytes(done), done.toString());
    @SuppressWarnings("unchecked")
    Map<Object, Object> byPartition = (Map<Object, Object>) md.get("partitionToWriteStats");
    List<GenericRecord> stats = new ArrayList<>();
    byPartition.forEach((k, v) -> {
      if (k.toString().equals(partition)) {
        ((List<?>) v).forEach(s -> stats.add((GenericRecord) s));
      }
    });
    assertEquals(1, stats.size(), stats.toString());
    return stats.get(0);
  }
}
