package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice metadata} and {@code sluice metadata validate} on the metadata table Hudi 0.15's Java client wrote. */
class MetadataCommandTest {
  private static final String FIRST = "af4a4bd4-119a-4e07-a09c-6b57863275b5-0_0-0-0_20261201203732298.parquet";
  private static final String SECOND = "af4a4bd4-119a-4e07-a09c-6b57863275b5-0_0-0-0_20261201203733578.parquet";

  @TempDir
  Path dir;

  /** A copy of core's golden table (tests run in the module folder; the golden tables live in sluice-core). */
  private Path golden() {
    return golden("cow_with_metadata_table");
  }

  private Path golden(String name) {
    Path from = Path.of("../sluice-core/src/test/resources/golden/" + name).toAbsolutePath().normalize();
    Path to = dir.resolve(name);
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

  @Test
  void listsThePartitionsAndFilesOfTheMetadataTable() throws IOException {
    Path t = golden();
    CliTest.Run text = CliTest.run("metadata", t.toString());
    assertEquals(0, text.exit(), text.err());
    assertTrue(text.out().contains("metadata table: used for listings"), text.out());
    assertTrue(text.out().contains("partition <none> (2 files)"), text.out());
    assertTrue(text.out().contains(FIRST + "  436,126 bytes"), text.out());

    CliTest.Run json = CliTest.run("metadata", t.toString(), "--json");
    assertEquals(0, json.exit(), json.err());
    JsonNode doc = new ObjectMapper().readTree(json.out());
    assertTrue(doc.get("usedForListings").asBoolean());
    assertEquals("20261201203733578", doc.get("latestInstant").asText());
    assertEquals("files", doc.get("partitionsEnabled").get(0).asText());
    JsonNode files = doc.get("partitions").get(0).get("files");
    assertEquals("", doc.get("partitions").get(0).get("partition").asText());
    assertEquals(SECOND, files.get(1).get("name").asText());
    assertEquals(Files.size(t.resolve(SECOND)), files.get(1).get("size").asLong());

    CliTest.Run off = CliTest.run("metadata", t.toString(), "--conf", "hoodie.metadata.enable=false");
    assertEquals(0, off.exit(), off.err());
    assertTrue(off.out().contains("not used for listings") && off.out().contains("hoodie.metadata.enable=false"),
        off.out());
  }

  @Test
  void validateNamesEveryDifferenceAndExitsOneOnDifferences() throws IOException {
    Path t = golden();
    CliTest.Run ok = CliTest.run("metadata", "validate", t.toString());
    assertEquals(0, ok.exit(), ok.out() + ok.err());
    assertTrue(ok.out().contains("metadata table matches storage: 1 partitions, 2 files compared, 0 differences"),
        ok.out());

    Files.delete(t.resolve(FIRST));
    Files.write(t.resolve(SECOND), new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
    String stray = "af4a4bd4-119a-4e07-a09c-6b57863275b5-0_0-0-0_20261201203733000.parquet";
    Files.write(t.resolve(stray), new byte[] {1});
    CliTest.Run bad = CliTest.run("metadata", "validate", t.toString());
    assertEquals(1, bad.exit(), bad.out() + bad.err());
    assertTrue(bad.out().contains("extra file <none>/" + FIRST + " (436126 bytes in the metadata table, not on storage)"),
        bad.out());
    assertTrue(bad.out().contains("size mismatch <none>/" + SECOND + ": metadata table 436177 bytes, storage 436180 bytes"),
        bad.out());
    assertTrue(bad.out().contains("missing file <none>/" + stray + " (1 bytes on storage, not in the metadata table)"),
        bad.out());
    assertTrue(bad.out().contains("1 partitions, 3 files compared, 3 differences"), bad.out());

    CliTest.Run json = CliTest.run("metadata", "validate", t.toString(), "--json");
    assertEquals(1, json.exit(), json.err());
    JsonNode doc = new ObjectMapper().readTree(json.out());
    assertEquals(3, doc.get("differences").size(), json.out());
    assertTrue(json.out().contains("\"SIZE_MISMATCH\""), json.out());
  }

  /**
   * The metadata table of a version-9 table Hudi 1.1.1's Java client wrote (golden {@code mor_v9_with_metadata_table})
   * is used for listings, lists Hudi's files, and matches storage; a file lost on storage is named.
   */
  @Test
  void listsAndValidatesTheMetadataTableOfAVersion9Table() throws IOException {
    Path t = golden("mor_v9_with_metadata_table");
    CliTest.Run json = CliTest.run("metadata", t.toString(), "--json");
    assertEquals(0, json.exit(), json.err());
    JsonNode doc = new ObjectMapper().readTree(json.out());
    assertTrue(doc.get("usedForListings").asBoolean(), json.out());
    assertEquals("20261205085811492", doc.get("latestInstant").asText(), "the metadata compaction, latest completed");
    assertEquals("column_stats,files,partition_stats,record_index", String.join(",",
        new ObjectMapper().convertValue(doc.get("partitionsEnabled"), String[].class)));
    assertEquals("p1", doc.get("partitions").get(0).get("partition").asText());
    assertEquals(6, doc.get("partitions").get(0).get("files").size(), json.out());

    CliTest.Run ok = CliTest.run("metadata", "validate", t.toString());
    assertEquals(0, ok.exit(), ok.out() + ok.err());
    assertTrue(ok.out().contains("metadata table matches storage: 2 partitions, 11 files compared, 0 differences"),
        ok.out());
    String lost = "a10dfe91-411f-461b-bce8-fd3ad834aaf2-0_0-0-0_20261205085726506.parquet";
    Files.delete(t.resolve("p2").resolve(lost));
    CliTest.Run bad = CliTest.run("metadata", "validate", t.toString());
    assertEquals(1, bad.exit(), bad.out() + bad.err());
    assertTrue(bad.out().contains("extra file p2/" + lost + " (10397 bytes in the metadata table, not on storage)"),
        bad.out());
  }

  @Test
  void aTableWithoutAMetadataTableIsAnError() {
    Path t = golden();
    CliTest.Run create = CliTest.run("create", dir.resolve("plain").toString(), "--record-key", "id", "--columns",
        "id string");
    assertEquals(0, create.exit(), create.err());
    CliTest.Run r = CliTest.run("metadata", dir.resolve("plain").toString());
    assertEquals(1, r.exit(), r.out());
    assertTrue(r.err().startsWith("error: ") && r.err().contains("has no metadata table"), r.err());
    assertTrue(Files.isDirectory(t.resolve(".hoodie/metadata")));
  }
}
