package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.MergeMode;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code hoodie.datasource.write.partitionpath.urlencode=true}, Sluice and Hudi 0.15 put the same partition
 * value in the same folder: Sluice writes rows with values holding the characters Hudi escapes, Hudi writes rows with
 * the same values into the same table, and each row's partition path matches its twin's; Hudi reads all of them.
 */
class PartitionEncodingInteropTest {
  private static final List<String> VALUES = List.of("a/b", "x:y*z", "50%", "q=1?", "tab\there", "[b]{c}^",
      "quote'\"#", "back\\slash", "plain", "a/../../b");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  @Test
  void sluiceAndHudiEscapePartitionValuesAlike() {
    Path location = dir.resolve("encoded");
    TableSpec spec = TableSpec.builder("encoded").type(TableType.COPY_ON_WRITE).precombine("ts")
        .schema(WideRows.SCHEMA).mergeMode(MergeMode.EVENT_TIME_ORDERING).recordKey("id").partitionBy("part")
        .property("hoodie.datasource.write.partitionpath.urlencode", "true").tableVersion(6).build();
    Table table = WideRows.create(location, spec, WideRows.NO_METADATA_TABLE);
    List<GenericRecord> sluiceRows = new ArrayList<>();
    List<GenericRecord> hudiRows = new ArrayList<>();
    for (int i = 0; i < VALUES.size(); i++) {
      sluiceRows.add(WideRows.row("s" + i, 1, VALUES.get(i), 1));
      hudiRows.add(WideRows.row("h" + i, 1, VALUES.get(i), 1));
    }
    table.insert(sluiceRows.iterator());
    oracle.write(location, "insert", WideRows.SCHEMA, hudiRows, Map.of("hoodie.metadata.enable", "false"));

    Map<String, String> pathOf = new TreeMap<>();
    for (GenericRecord r : oracle.read(location, "snapshot", Optional.empty())) {
      pathOf.put(r.get("id").toString(), r.get("_hoodie_partition_path").toString());
      assertEquals(VALUES.get(Integer.parseInt(r.get("id").toString().substring(1))), r.get("part").toString());
    }
    assertEquals(2 * VALUES.size(), pathOf.size(), pathOf.toString());
    for (int i = 0; i < VALUES.size(); i++) {
      String path = pathOf.get("s" + i);
      assertEquals(pathOf.get("h" + i), path, "value " + VALUES.get(i));
      assertTrue(Files.isDirectory(location.resolve(path)), path);
      assertTrue(!path.contains("/"), "one folder level: " + path);
    }
    assertEquals("x%3Ay%2Az", pathOf.get("s1"));
  }
}
