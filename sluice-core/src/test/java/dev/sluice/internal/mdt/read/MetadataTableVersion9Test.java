package dev.sluice.internal.mdt.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.mdt.RecordLocation;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metadata table of the golden version-9 table Hudi 1.1.1's Java client wrote ({@code mor_v9_with_metadata_table},
 * see golden/README.md): Sluice's listing and record-index lookups are what Hudi 1.1.1's
 * {@code HoodieBackedTableMetadata} returned ({@code .mdt-files.jsonl}, {@code .mdt-index.json}). The table's last
 * metadata deltacommit completed after a metadata compaction planned at a later time: its log file joins the
 * compaction's slice by completion time and is read on top of the new base file.
 */
public class MetadataTableVersion9Test {
  static final String NAME = "mor_v9_with_metadata_table";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Storage storage = new LocalStorage();

  @TempDir
  Path dir;

  /** The golden tables folder in the test resources. */
  static Path goldenFolder() {
    return Path.of(MetadataTableVersion9Test.class.getResource("/golden/" + NAME + ".mdt-files.jsonl").getPath())
        .getParent();
  }

  /** Copies the golden version-9 table with its metadata table to {@code to} (without .crc files). */
  public static Path golden(Path to) {
    Path from = goldenFolder().resolve(NAME);
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.getFileName().toString().endsWith(".crc")) {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return to;
  }

  private Timeline timeline(Path table) {
    return new TimelineStore(storage, table.toString(),
        TimelineLayout.of(TableConfigStore.read(storage, table.toString()))).load();
  }

  @Test
  void listsAndLooksUpAsHudi111() throws IOException {
    Path t = golden(dir.resolve("t"));
    Timeline data = timeline(t);
    assertInstanceOf(TrustRules.Hudi1.class, TrustRules.of(data));
    MetadataTables.Availability a = MetadataTables.check(storage, t.toString(), data,
        TableConfigStore.read(storage, t.toString()), true);
    assertTrue(a.available(), a.reason());
    MetadataTableReader r = a.reader().orElseThrow();

    Map<String, Map<String, Long>> hudi = new TreeMap<>();
    for (String line : Files.readAllLines(goldenFolder().resolve(NAME + ".mdt-files.jsonl"), StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        JsonNode n = JSON.readTree(line);
        Map<String, Long> files = new TreeMap<>();
        n.get("files").fields().forEachRemaining(e -> files.put(e.getKey(), e.getValue().asLong()));
        hudi.put(n.get("partition").asText(), files);
      }
    }
    Map<String, Map<String, Long>> sluice = new TreeMap<>();
    r.files(r.partitions()).forEach((p, files) -> {
      Map<String, Long> m = new TreeMap<>();
      files.forEach(f -> m.put(f.name(), f.size()));
      sluice.put(p, m);
    });
    assertEquals(hudi, sluice, "Sluice's listing vs Hudi 1.1.1's");
    assertEquals(List.of(), ListingCheck.compare(r, storage, t.toString(), data).differences(),
        "and the listing is what storage holds");

    Map<String, String> hudiIndex = new TreeMap<>();
    JSON.readTree(Files.readString(goldenFolder().resolve(NAME + ".mdt-index.json"))).fields()
        .forEachRemaining(e -> hudiIndex.put(e.getKey(), e.getValue().get("partition").asText() + "/"
            + e.getValue().get("fileId").asText()));
    Map<String, String> sluiceIndex = new TreeMap<>();
    for (Map.Entry<String, RecordLocation> e : r.recordLocations(List.of("k1", "k2", "k3", "k4", "k5", "k6", "absent"))
        .entrySet()) {
      sluiceIndex.put(e.getKey(), e.getValue().partition() + "/" + e.getValue().fileId());
    }
    assertEquals(hudiIndex, sluiceIndex, "record-index lookups vs Hudi 1.1.1's (k2 deleted)");
    assertEquals(5, sluiceIndex.size());
  }

  /**
   * Deleting the metadata table Hudi 1.1.1 wrote and building it again work on version 9 (they were refused while
   * Sluice did not keep it): the rebuilt one is Hudi 1.x's form (initialized at {@code 00000000000000000}, the
   * record index at {@code 00000000000000001}), and listings go through it again.
   */
  @Test
  void deleteThenInitRebuildsItInHudi1xForm() throws IOException {
    Path t = golden(dir.resolve("t"));
    Table table = Tables.open(t.toString());
    assertTrue(table.deleteMetadataTable());
    assertTrue(Files.notExists(t.resolve(".hoodie/metadata")));
    // the handle was opened on a table with a record index and leaves hoodie.metadata.record.index.enable unset: it
    // keeps one, so the rebuild has it too (as on version 6), at the next initialization instant
    assertEquals(List.of("files", "record_index"), table.initMetadataTable(false).partitionsEnabled());
    try (Stream<Path> s = Files.list(t.resolve(".hoodie/metadata/.hoodie/timeline"))) {
      List<String> names = s.map(f -> f.getFileName().toString()).toList();
      assertTrue(names.stream().anyMatch(n -> n.matches("00000000000000000_\\d{17}\\.deltacommit")), names.toString());
      assertTrue(names.stream().anyMatch(n -> n.matches("00000000000000001_\\d{17}\\.deltacommit")), names.toString());
    }
    assertTrue(table.metadataTable().usedForListings());
  }

  @Test
  void aDeltacommitCompletedAfterACompactionWasPlannedJoinsItsSlice() {
    Path t = golden(dir.resolve("t"));
    MetadataTableReader r = MetadataTableReader.open(storage, t.toString(), timeline(t)).orElseThrow();
    FileSlice files = r.fileSlices(MetadataPartition.FILES).get(0);
    // the metadata compaction 20261205085811492 was planned while the deltacommit 20261205085811295 was running; that
    // deltacommit completed at 20261205085818278, after the compaction (20261205085816457)
    assertEquals("20261205085811492", files.baseInstant());
    assertEquals(List.of(".files-0000-0_20261205085811295.log.1_0-0-0"),
        files.logFiles().stream().map(LogFile::fileName).toList());
    assertTrue(r.files("p1").stream().anyMatch(f -> f.name().contains("_20261205085811295.log.")),
        "the data log file that deltacommit listed is read: " + r.files("p1"));
  }
}
