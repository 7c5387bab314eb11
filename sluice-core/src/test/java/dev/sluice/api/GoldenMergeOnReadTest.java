package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.log.LogBlockType;
import dev.sluice.internal.log.LogDump;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.Test;

/**
 * The golden Merge-on-Read table written by Hudi 0.15.0's Java client (test resources, see golden/README.md): Sluice's
 * snapshot and read-optimized reads give the rows Hudi's own reads gave ({@code .expected.jsonl},
 * {@code .read_optimized.jsonl}).
 */
class GoldenMergeOnReadTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void snapshotAndReadOptimizedMatchHudi() throws IOException, URISyntaxException {
    Path golden = Path.of(getClass().getResource("/golden/mor_partitioned.expected.jsonl").toURI()).getParent();
    Table t = Tables.open(golden.resolve("mor_partitioned").toString());
    assertEquals(TableType.MERGE_ON_READ, t.config().type());
    assertEquals(expected(golden.resolve("mor_partitioned.expected.jsonl")), actual(t, QueryType.SNAPSHOT));
    assertEquals(expected(golden.resolve("mor_partitioned.read_optimized.jsonl")), actual(t, QueryType.READ_OPTIMIZED));

    Set<LogBlockType> types = new HashSet<>();
    FileSystemView view = t.fileSystemView();
    for (String p : view.partitions()) {
      for (FileSlice s : view.latestSlices(p)) {
        for (LogFile l : s.logFiles()) {
          LogDump.list(t.storage(), l.path()).forEach(b -> types.add(b.type()));
        }
      }
    }
    assertEquals(Set.of(LogBlockType.AVRO_DATA_BLOCK, LogBlockType.DELETE_BLOCK), types,
        "the table exercises data and delete blocks");
  }

  /** Rows of the oracle's output, by record key: field name → Avro's text of the value. */
  private static Map<String, Map<String, String>> expected(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    Schema schema = new Schema.Parser().parse(JSON.readTree(lines.get(0)).get("schema").toString());
    GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(schema);
    List<GenericRecord> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      if (!line.isBlank()) {
        rows.add(reader.read(null, DecoderFactory.get().jsonDecoder(schema, line)));
      }
    }
    assertTrue(rows.size() > 3, "the golden file has rows");
    return byKey(rows);
  }

  private static Map<String, Map<String, String>> actual(Table t, QueryType type) {
    List<GenericRecord> rows = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().queryType(type).withMetaColumns(true).open()) {
      it.forEachRemaining(rows::add);
    }
    return byKey(rows);
  }

  private static Map<String, Map<String, String>> byKey(List<GenericRecord> rows) {
    Map<String, Map<String, String>> out = new java.util.TreeMap<>();
    for (GenericRecord r : rows) {
      Map<String, String> fields = new LinkedHashMap<>();
      for (Schema.Field f : r.getSchema().getFields()) {
        fields.put(f.name(), GenericData.get().toString(r.get(f.pos())));
      }
      assertEquals(null, out.put(String.valueOf(r.get("_hoodie_record_key")), fields), "one row per key");
    }
    return out;
  }
}
