package dev.sluice.internal.timeline.lsm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LSM archived timeline written and read back: file names, rows, manifests and {@code _version_}; merging of full
 * layers and cleaning of old snapshots as Hudi 1.1.1's {@code LSMTimelineWriter} does; what a crashed writer leaves.
 */
class LsmTimelineTest {
  @TempDir
  Path dir;

  private LsmTimeline timeline() {
    return LsmTimeline.of(new LocalStorage(), dir.toString());
  }

  private LsmTimelineWriter writer(int batch) {
    return LsmTimelineWriter.of(new LocalStorage(), timeline(), new LsmSettings("gzip", batch));
  }

  private static LsmInstant instant(int n) {
    String t = String.format("2026120500000%04d", n);
    return new LsmInstant(t, String.format("2026120500001%04d", n), n % 5 == 4 ? "clean" : "deltacommit",
        Optional.of(("metadata " + n).getBytes(StandardCharsets.UTF_8)),
        n % 5 == 4 ? Optional.of(new byte[] {(byte) n}) : Optional.empty());
  }

  private static List<LsmInstant> batch(int from, int to) {
    List<LsmInstant> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(instant(i));
    }
    return out;
  }

  private List<String> files() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aBatchIsALayerZeroFileAndASnapshotReadBackWithItsBytes() throws IOException {
    LsmTimelineWriter w = writer(10);
    assertEquals(Optional.empty(), timeline().latestVersion());
    assertEquals(List.of(), timeline().instants(), "no archive: no instants");
    String name = w.write(List.of(instant(2), instant(0), instant(1)));
    assertEquals("20261205000000000_20261205000000002_0.parquet", name, "<first>_<last>_0, whatever the order given");
    assertEquals(List.of(name, "_version_", "manifest_1"), files());
    assertEquals("1", Files.readString(dir.resolve("_version_")));
    String manifest = Files.readString(dir.resolve("manifest_1"));
    assertEquals("{\n  \"files\" : [ {\n    \"fileName\" : \"" + name + "\",\n    \"fileLen\" : "
        + Files.size(dir.resolve(name)) + "\n  } ]\n}", manifest, "Hudi's manifest JSON");
    assertEquals(batch(0, 3), timeline().instantsWithDetails());
    assertEquals(Map.of(instant(0).instantTime(), instant(0).completionTime(), instant(1).instantTime(),
        instant(1).completionTime(), instant(2).instantTime(), instant(2).completionTime()), timeline().completionTimes());
    LsmTimeline.Archived one = timeline().instants().get(1);
    assertArrayEquals(instant(1).metadata().orElseThrow(), timeline().metadata(one).orElseThrow(), "lazy metadata");
    // the file is what Hudi's Avro parquet writer writes with meta fields off: the Avro schema, no key footer
    try (BaseFileReader r = BaseFileReader.open(new LocalStorage(), dir.resolve(name).toString())) {
      assertEquals(LsmInstant.SCHEMA, r.footer().schema());
      assertEquals(java.util.Set.of("parquet.avro.schema", "writer.model.name"), r.footer().keyValueMetadata().keySet());
    }
  }

  @Test
  void fullLayersMergeIntoTheNextAndOldSnapshotsAreCleaned() throws IOException {
    LsmTimelineWriter w = writer(2);
    List<String> mergedNames = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      w.write(batch(i * 2, i * 2 + 2));
      mergedNames.addAll(w.compactAndClean());
    }
    // 8 layer-0 files: merged pairwise into 4 layer-1 files, those into 2 layer-2 files, those into 1 layer-3 file
    assertTrue(mergedNames.contains("20261205000000000_20261205000000015_3.parquet"), mergedNames.toString());
    assertEquals(List.of("20261205000000000_20261205000000015_3.parquet"), timeline().latestManifest().fileNames());
    assertEquals(batch(0, 16), timeline().instantsWithDetails(), "every instant once, bytes intact");
    // the last run merged 3 layers: it keeps 3 + 3 snapshots and only the files they list
    List<Integer> versions = timeline().versions();
    assertEquals(6, versions.size(), versions.toString());
    List<String> needed = new ArrayList<>();
    for (int v : versions) {
      needed.addAll(timeline().manifest(v).fileNames());
    }
    for (String f : files()) {
      if (f.endsWith(".parquet")) {
        assertTrue(needed.contains(f), f + " is listed by a kept snapshot");
      }
    }
    // a layer below the batch size is not merged
    w.write(batch(16, 18));
    assertEquals(List.of(), w.compactAndClean());
    assertEquals(2, timeline().latestManifest().files().size());
  }

  @Test
  void crashLeftoversAreNotReadAndTheNextWriterRepairsThem() throws IOException {
    LsmTimelineWriter w = writer(10);
    w.write(batch(0, 2));
    // a crashed archival: its data file half written and its manifest written, _version_ not yet replaced
    String next = "20261205000000002_20261205000000003_0.parquet";
    Files.write(dir.resolve(next), new byte[] {'P', 'A', 'R', '1', 0});
    Files.writeString(dir.resolve("manifest_2"), "{\"files\":[{\"fileName\":\"" + next + "\",\"fileLen\":5}]}");
    assertEquals(Optional.of(1), timeline().latestVersion());
    assertEquals(batch(0, 2), timeline().instantsWithDetails(), "readers see the last published snapshot");
    // the archival runs again: the unlisted file and the stale manifest are replaced
    assertEquals(next, w.write(batch(2, 4)));
    assertEquals(Optional.of(2), timeline().latestVersion());
    assertEquals(batch(0, 4), timeline().instantsWithDetails());
    // the same batch once more (a crash after publishing, before the active files went): nothing is written
    long modified = Files.getLastModifiedTime(dir.resolve("manifest_2")).toMillis();
    assertEquals(next, w.write(batch(2, 4)));
    assertEquals(List.of(1, 2), timeline().versions());
    assertEquals(modified, Files.getLastModifiedTime(dir.resolve("manifest_2")).toMillis());
    // _version_ gone (a crash between its delete and its re-creation): the greatest manifest is the snapshot
    Files.delete(dir.resolve("_version_"));
    assertEquals(Optional.of(2), timeline().latestVersion());
    assertEquals(batch(0, 4), timeline().instantsWithDetails());
    // an instant archived twice (published, then archived again in a larger batch) is read once
    w.write(batch(3, 5));
    assertEquals(batch(0, 5), timeline().instantsWithDetails());
  }
}
