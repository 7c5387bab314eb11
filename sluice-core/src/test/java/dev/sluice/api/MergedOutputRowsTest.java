package dev.sluice.api;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.basefile.WideRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Merge-on-Read snapshot hands the base rows it keeps on in the output schema as they were read (a
 * {@link WideRow}, no copy), with the record key and ordering field the merge needs hidden: to the caller they are
 * records of the scan's schema, equal to the same rows built as plain records, whatever columns are selected.
 */
class MergedOutputRowsTest {
  @TempDir
  Path dir;

  private Table table() {
    Table t = TripFixture.create(dir, MorFixture.spec().build(), Map.of("hoodie.parquet.small.file.limit", "0"));
    t.insert(it(trips(0, 40, 2, 10)));
    // updates (newer and older than the stored rows), a delete and a new key: the slices have logs
    t.upsert(it(List.of(trip("id-000000", 20, "p0", "v20", 1.5), trip("id-000003", 5, "p1", "old", 2.5),
        trip("id-000100", 7, "p0", "new", 3.5))));
    t.delete(it(List.of(trip("id-000004", 0, "p0", null, 0))));
    return t;
  }

  private static List<GenericRecord> read(Scan scan) {
    List<GenericRecord> rows = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = scan.open()) {
      it.forEachRemaining(rows::add);
    }
    return rows;
  }

  @Test
  void keptBaseRowsShowOnlyTheSelectedColumns() {
    Table t = table();
    assertTrue(MorFixture.logFiles(dir).size() >= 2, "the slices merge log files");
    List<GenericRecord> all = read(t.newScan());
    Scan narrow = t.newScan().select(List.of("amount", "name"));
    Schema schema = narrow.schema();
    List<GenericRecord> rows = read(narrow);
    assertEquals(40, all.size());
    assertEquals(all.size(), rows.size());
    int wide = 0;
    for (int i = 0; i < rows.size(); i++) {
      GenericRecord r = rows.get(i);
      assertEquals(schema, r.getSchema());
      GenericData.Record plain = new GenericData.Record(schema);
      plain.put(0, all.get(i).get("amount"));
      plain.put(1, all.get(i).get("name"));
      assertEquals(plain, r, "row " + i);
      assertEquals(plain.toString(), r.toString());
      assertEquals(plain.hashCode(), r.hashCode());
      wide += r instanceof WideRow ? 1 : 0;
    }
    // every row but the two replaced by log records (the update and the new key) is a base row handed on as read
    assertEquals(38, wide);
    assertEquals("v20", all.stream().filter(r -> r.get("id").toString().equals("id-000000")).findFirst().orElseThrow()
        .get("name").toString());
  }

  @Test
  void aFilterOnAColumnOutsideTheSelectionStillSeesIt() {
    Table t = table();
    List<GenericRecord> rows = read(t.newScan().select(List.of("name")).filter(Expressions.eq("id", "id-000000")));
    assertEquals(1, rows.size());
    assertEquals("v20", rows.get(0).get("name").toString());
    List<GenericRecord> kept = read(t.newScan().select(List.of("name")).filter(Expressions.eq("id", "id-000003")));
    assertEquals(1, kept.size());
    assertEquals("name-3", kept.get(0).get("name").toString(), "the older update loses to the stored row");
  }
}
