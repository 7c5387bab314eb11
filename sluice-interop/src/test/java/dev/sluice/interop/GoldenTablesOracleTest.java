package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The committed golden tables (sluice-core test resources) still read, with Hudi, as their {@code .expected.jsonl}
 * says, from a copy that lacks empty folders as a git checkout does; and they hold the keys the generator wrote.
 */
class GoldenTablesOracleTest {

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "cow_partitioned;id01 id02 id03 id05 id06 id07 id09 id10",
      "cow_nonpartitioned;n1 n2 n3 n4 n5",
      "cow_complex_key_hive;id:a,sub:1 id:a,sub:1 id:a,sub:2 id:b,sub:1 id:c,sub:7 id:d,sub:1",
      "cow_with_metadata_table;n1 n2 n3 n4 n5"})
  void oracleReadMatchesExpected(String name, String keys) {
    Path table = Golden.copy(name, dir.resolve(name));
    List<String> expected = Golden.expectedLines(name);

    List<String> actual = oracle.run(List.of("read", "--table", table.toString()));
    assertEquals(expected, actual);

    List<GenericRecord> rows = HudiOracle.parseRows(expected);
    assertEquals(List.of(keys.split(" ")), rows.stream().map(r -> r.get("_hoodie_record_key").toString())
        .collect(Collectors.toList()));
    if (name.equals("cow_with_metadata_table")) {
      assertTrue(Files.isDirectory(table.resolve(".hoodie/metadata/files")));
      assertEquals(rows.toString(), oracle.read(table, "snapshot", Optional.empty(), true).toString(),
          "listing through the metadata table gives the same rows");
    }
  }
}
