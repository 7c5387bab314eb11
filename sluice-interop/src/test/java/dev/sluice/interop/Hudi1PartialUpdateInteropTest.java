package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Config;
import dev.sluice.api.Scan;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partial updates as Hudi 1.1.1 writes them: Spark SQL {@code MERGE INTO ... WHEN MATCHED THEN UPDATE SET} a few
 * columns of a version-9 Merge-on-Read table leaves log blocks with {@code IS_PARTIAL=true} whose schema holds only
 * those columns (golden tables {@code mor_v9_partial_event_time} and {@code mor_v9_partial_commit_time}, see the
 * golden README). For each table, in one Spark (Hudi 1.1.1 bundle) session: Sluice's snapshot read equals Hudi's;
 * after Sluice compacts a copy, Hudi reads that copy the same as before; after Sluice upserts into another copy,
 * Hudi reads what Sluice reads. An incremental read of only the partial commits is refused with a clear error.
 */
class Hudi1PartialUpdateInteropTest {
  private static final List<String> TABLES = List.of("mor_v9_partial_event_time", "mor_v9_partial_commit_time");

  @TempDir
  Path dir;

  @Test
  void sluiceReadsCompactsAndContinuesTablesWithHudiPartialUpdates() {
    HudiSpark spark = HudiSpark.locate("1.1.1");
    List<HudiSpark.Read> reads = new ArrayList<>();
    List<Map<String, String>> sluiceReads = new ArrayList<>();
    List<Map<String, String>> sluiceAfterUpsert = new ArrayList<>();
    for (String name : TABLES) {
      Path asWritten = Golden.copy(name, dir.resolve(name + "-read"));
      Path compacted = Golden.copy(name, dir.resolve(name + "-compacted"));
      Path continued = Golden.copy(name, dir.resolve(name + "-upserted"));

      sluiceReads.add(rows(Tables.open(asWritten.toString(), Config.empty())));
      // the partial commits only: their slices are read without the base file, so nothing gives the other columns
      // (Hudi 1.1.1's Spark incremental read of these tables fails too, with a ClassCastException); a clear error
      String begin = firstCompletion(asWritten);
      SluiceException e = assertThrows(SluiceException.class,
          () -> rows(Tables.open(asWritten.toString(), Config.empty()).newScan().incremental(begin)));
      assertTrue(e.getMessage().contains("partial update"), e.getMessage());

      Table c = Tables.open(compacted.toString(), Config.empty());
      String instant = c.compaction().scheduleNow().orElseThrow();
      c.compaction().run(instant);
      assertEquals(sluiceReads.get(sluiceReads.size() - 1), rows(Tables.open(compacted.toString(), Config.empty())),
          name + ": Sluice reads its compaction as the slices before it");

      Table u = Tables.open(continued.toString(), Config.empty());
      Schema schema = u.schema();
      List<GenericRecord> changes = new ArrayList<>();
      changes.add(record(schema, "k2", 9, "p1", "sluice-k2", 92.5));
      changes.add(record(schema, "k6", 9, "p2", "sluice-k6", 96.5));
      changes.add(record(schema, "k7", 9, "p2", "sluice-k7", 97.5));
      u.upsert(changes.iterator());
      sluiceAfterUpsert.add(rows(Tables.open(continued.toString(), Config.empty())));

      reads.add(new HudiSpark.Read(asWritten, "snapshot", Map.of()));
      reads.add(new HudiSpark.Read(compacted, "snapshot", Map.of()));
      reads.add(new HudiSpark.Read(continued, "snapshot", Map.of()));
    }
    List<List<Map<String, Object>>> byHudi = spark.read(reads, dir);
    for (int i = 0; i < TABLES.size(); i++) {
      String name = TABLES.get(i);
      Map<String, String> hudiAsWritten = byKey(byHudi.get(3 * i));
      assertEquals(hudiAsWritten, sluiceReads.get(i), name + ": Sluice's snapshot read equals Hudi 1.1.1's");
      assertEquals(hudiAsWritten, byKey(byHudi.get(3 * i + 1)), name + ": Hudi reads Sluice's compaction the same");
      assertEquals(byKey(byHudi.get(3 * i + 2)), sluiceAfterUpsert.get(i), name + ": Hudi reads Sluice's upsert");
      assertNotEquals(hudiAsWritten, sluiceAfterUpsert.get(i), name + ": the upsert changed rows");
    }
  }

  private static String firstCompletion(Path table) {
    try (Stream<Path> files = Files.list(table.resolve(".hoodie/timeline"))) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.matches("\\d{17}_\\d{17}\\.deltacommit"))
          .map(n -> n.substring(18, 35)).sorted().findFirst().orElseThrow();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static GenericRecord record(Schema schema, String id, long ts, String part, String name, double amount) {
    GenericData.Record r = new GenericData.Record(schema);
    r.put("id", id);
    r.put("ts", ts);
    r.put("part", part);
    r.put("name", name);
    r.put("amount", amount);
    return r;
  }

  /** Key to "name|ts|amount|part|commit time" of a Sluice snapshot read. */
  private static Map<String, String> rows(Table t) {
    return rows(t.newScan());
  }

  private static Map<String, String> rows(Scan scan) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = scan.withMetaColumns(true).open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        String prev = out.put(r.get("_hoodie_record_key").toString(), r.get("name") + "|" + r.get("ts") + "|" + r.get("amount") + "|"
            + r.get("part") + "|" + r.get("_hoodie_commit_time"));
        assertEquals(null, prev, "duplicate key " + r.get("_hoodie_record_key"));
      }
    }
    return out;
  }

  private static Map<String, String> byKey(List<Map<String, Object>> rows) {
    Map<String, String> out = new TreeMap<>();
    for (Map<String, Object> r : rows) {
      // Spark prints doubles as JSON numbers: 20.5 stays 20.5, 4.0 comes back as 4.0
      out.put(r.get("_hoodie_record_key").toString(), r.get("name") + "|" + r.get("ts") + "|" + r.get("amount") + "|" + r.get("part")
          + "|" + r.get("_hoodie_commit_time"));
    }
    return out;
  }
}
