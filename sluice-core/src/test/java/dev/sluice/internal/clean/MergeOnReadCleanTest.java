package dev.sluice.internal.clean;

import static dev.sluice.api.TripFixture.trip;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.Table;
import dev.sluice.api.TripFixture;
import dev.sluice.api.TableType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cleaner on a Merge-on-Read table written through the Table API. Until compaction writes new base files, a slice
 * with log files is always the latest of its group (see {@link ProtectedFilesTest} for older slices with logs).
 */
class MergeOnReadCleanTest {
  @TempDir
  Path dir;

  private final Map<String, Map<String, String>> expected = new LinkedHashMap<>();
  private final Map<String, String> current = new TreeMap<>();

  private String write(Table t, List<GenericRecord> rows) {
    String instant = t.upsert(rows.iterator()).instantTime();
    rows.forEach(r -> current.put(r.get("id").toString(), r.get("name").toString()));
    expected.put(instant, new TreeMap<>(current));
    return instant;
  }

  private Map<String, String> names(Table t, String asOf) {
    Map<String, String> out = new TreeMap<>();
    TripFixture.rows(t.newScan().asOf(asOf).open()).forEach((id, r) -> out.put(id, r.get("name").toString()));
    return out;
  }

  @Test
  void supersededBaseFileSlicesAreDeletedAndTimeTravelInTheWindowWorks() throws IOException {
    Table t = TripFixture.create(dir, TripFixture.spec().type(TableType.MERGE_ON_READ).build(), Map.of(
        "hoodie.parquet.max.file.size", "2000000", "hoodie.copyonwrite.record.size.estimate", "10",
        "hoodie.cleaner.commits.retained", "2"));
    List<String> c = new ArrayList<>();
    c.add(write(t, List.of(trip("a", 0, "p0", "a0", 0))));
    // an update with an insert into the small group (no logs yet): a new base file version, slice c1
    c.add(write(t, List.of(trip("a", 1, "p0", "a1", 0), trip("b", 1, "p0", "b1", 0))));
    c.add(write(t, List.of(trip("a", 2, "p0", "a2", 0), trip("c", 2, "p0", "c2", 0))));
    // updates only: log files on slice c2
    c.add(write(t, List.of(trip("b", 3, "p0", "b3", 0))));
    c.add(write(t, List.of(trip("a", 4, "p0", "a4", 0))));
    // ECTR = c3; the newest slice before it is c2 (also the latest); c0 and c1 are superseded before the window
    assertEquals(List.of(c.get(2)), baseFileInstants(), "base files left");
    assertEquals(2, logFiles().size(), "the latest slice keeps its log files: " + logFiles());
    for (String commit : c.subList(2, 5)) {
      assertEquals(expected.get(commit), names(t, commit), "as of " + commit);
    }
    assertEquals(current, names(t, c.get(4)));
  }

  private List<String> files(String suffixOrPrefix, boolean logs) throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve("p0"))) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> logs ? n.contains(".log.") && !n.endsWith(".crc") : n.endsWith(suffixOrPrefix)).sorted().toList();
    }
  }

  private List<String> baseFiles() throws IOException {
    return files(".parquet", false);
  }

  private List<String> baseFileInstants() throws IOException {
    return baseFiles().stream().map(n -> n.substring(n.lastIndexOf('_') + 1, n.length() - ".parquet".length())).toList();
  }

  private List<String> logFiles() throws IOException {
    return files("", true);
  }
}
