package dev.sluice.interop;

import dev.sluice.internal.service.TableInternals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
import dev.sluice.internal.timeline.Instant;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sluice reads the golden Copy-on-Write tables Hudi's Java client wrote: with meta columns, a scan returns exactly
 * Hudi's own read ({@code <name>.expected.jsonl}) and the same schema, without changing the table; time travel
 * on {@code cow_partitioned} matches Hudi's time travel.
 */
class SluiceReadsGoldenTablesTest {

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  @ParameterizedTest
  @ValueSource(strings = {"cow_partitioned", "cow_nonpartitioned", "cow_complex_key_hive", "cow_with_metadata_table"})
  void scanWithMetaColumnsEqualsHudisRead(String name) {
    Path location = Golden.copy(name, dir.resolve(name));
    Map<String, Long> filesBefore = files(location);
    List<GenericRecord> expected = HudiOracle.parseRows(Golden.expectedLines(name));

    Table table = Tables.open(location.toString(), Config.empty());
    List<GenericRecord> rows = Rows.scan(table, Optional.empty());
    Rows.assertSameRows(expected, rows, "Sluice's scan of " + name + " vs Hudi's read");

    org.apache.avro.Schema hudiSchema = expected.get(0).getSchema();
    assertEquals(InteropChecks.withoutMeta(hudiSchema), table.schema(), "table schema of " + name);
    assertEquals(Rows.fieldNames(hudiSchema), Rows.fieldNames(rows.get(0).getSchema()), "scan columns of " + name);
    assertEquals(filesBefore, files(location), "reading changed nothing in " + name);
  }

  @Test
  void timeTravelOnPartitionedTableMatchesHudi() {
    Path location = Golden.copy("cow_partitioned", dir.resolve("cow_partitioned"));
    Table table = Tables.open(location.toString(), Config.empty());
    List<String> commits = TableInternals.timeline(table).commitsTimeline().completed().instants().stream().map(Instant::time)
        .collect(Collectors.toList());
    assertEquals(3, commits.size(), "insert, upsert, delete: " + commits);
    // The generator's first commit inserts 8 rows; the second updates 3 and inserts 2.
    int[] sizes = {8, 10};
    OracleBatch batch = oracle.batch();
    List<OracleBatch.Pending<List<GenericRecord>>> reads = List.of(
        batch.read(location, "snapshot", Optional.of(commits.get(0)), false),
        batch.read(location, "snapshot", Optional.of(commits.get(1)), false));
    batch.run();
    for (int i = 0; i < 2; i++) {
      List<GenericRecord> hudi = reads.get(i).get();
      assertEquals(sizes[i], hudi.size(), "Hudi as of " + commits.get(i));
      Rows.assertSameRows(hudi, Rows.scan(table, Optional.of(commits.get(i))), "Sluice vs Hudi as of " + commits.get(i));
    }
  }

  /** Every regular file under the table with its size. */
  private static Map<String, Long> files(Path location) {
    try (Stream<Path> paths = Files.walk(location)) {
      Map<String, Long> out = new TreeMap<>();
      for (Path p : paths.filter(Files::isRegularFile).collect(Collectors.toList())) {
        out.put(location.relativize(p).toString(), Files.size(p));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
