package dev.sluice.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.MergeMode;
import dev.sluice.internal.merge.Ordering;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PreparedBatchTest {
  static final Schema SCHEMA = SchemaBuilder.record("r").fields()
      .requiredString("id").requiredLong("ts").requiredString("v").endRecord();

  @TempDir
  Path dir;

  private static WriteRecord rec(String key, String part, long ts, String v) {
    GenericData.Record r = new GenericData.Record(SCHEMA);
    r.put("id", key);
    r.put("ts", ts);
    r.put("v", v);
    return new WriteRecord(key, part, r, ts, WriteRecord.DeleteKind.NONE);
  }

  /** Keys k0..k299 in two partitions, then versions of k0..k99 at ts 3, 2 (a tie) and 1 (loses) in turn. */
  private static List<WriteRecord> batch() {
    List<WriteRecord> out = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      out.add(rec("k" + i, "p" + (i % 2), 2, "first"));
    }
    for (int i = 0; i < 100; i++) {
      out.add(rec("k" + i, "p" + (i % 2), 3 - (i % 3), "again"));
    }
    out.add(new WriteRecord("k5", "p1", null, Ordering.NATURAL, WriteRecord.DeleteKind.HARD));
    return out;
  }

  private PreparedBatch prepared(boolean combine, boolean global, long budget) {
    PreparedBatch b = new PreparedBatch(combine, global, new RecordMerger(MergeMode.EVENT_TIME_ORDERING),
        new PreparedBatch.Budget(budget, dir.resolve("spill")),
        () -> new WriteRecordSerializer(SCHEMA, Optional.of("ts")));
    batch().forEach(b::add);
    return b;
  }

  private static List<String> describe(List<WriteRecord> records) {
    List<String> out = new ArrayList<>();
    for (WriteRecord r : records) {
      out.add(r.partitionPath() + "/" + r.key() + "@" + r.ordering() + ":" + r.delete()
          + (r.data() == null ? "" : ":" + r.data().get("v")));
    }
    out.sort(null);
    return out;
  }

  private static List<WriteRecord> drain(PreparedBatch b) {
    List<WriteRecord> out = new ArrayList<>();
    try (CloseableIterator<WriteRecord> it = b.sorted()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  @Test
  void aBatchWithinTheBudgetStaysInMemory() {
    try (PreparedBatch b = prepared(true, false, 1L << 30)) {
      assertFalse(b.spilled());
      assertEquals(401, b.added());
      assertEquals(300, b.records().size());
      assertThrows(IllegalStateException.class, b::sorted);
    }
    assertFalse(Files.exists(dir.resolve("spill")));
  }

  @Test
  void aSpilledBatchCombinesDuplicatesByTheSameRule() throws IOException {
    List<String> inMemory;
    try (PreparedBatch b = prepared(true, false, 1L << 30)) {
      inMemory = describe(b.records());
    }
    try (PreparedBatch b = prepared(true, false, 4096)) {
      assertTrue(b.spilled());
      assertThrows(IllegalStateException.class, b::records);
      List<WriteRecord> sorted = drain(b);
      assertEquals(inMemory, describe(sorted));
      for (int i = 1; i < sorted.size(); i++) {
        WriteRecord a = sorted.get(i - 1);
        WriteRecord c = sorted.get(i);
        assertTrue((a.partitionPath() + '\u0000' + a.key()).compareTo(c.partitionPath() + '\u0000' + c.key()) < 0);
      }
    }
    assertTrue(inMemory.contains("p0/k0@3:NONE:again"), "a larger ordering wins");
    assertTrue(inMemory.contains("p1/k1@2:NONE:again"), "a tie goes to the later record");
    assertTrue(inMemory.contains("p0/k2@2:NONE:first"), "a smaller ordering loses");
    assertTrue(inMemory.contains("p1/k5@2:NONE:first"), "a key-only delete (natural ordering) loses to ordering 2");
    try (Stream<Path> left = Files.list(dir.resolve("spill"))) {
      assertEquals(0, left.count(), "runs deleted on close");
    }
  }

  @Test
  void withoutCombiningEveryRecordIsKeptInArrivalOrderPerKey() {
    try (PreparedBatch b = prepared(false, true, 4096)) {
      assertTrue(b.spilled());
      List<WriteRecord> sorted = drain(b);
      assertEquals(401, sorted.size());
      List<WriteRecord> k3 = sorted.stream().filter(r -> r.key().equals("k3")).toList();
      assertEquals(List.of("first", "again"), k3.stream().map(r -> r.data().get("v").toString()).toList());
    }
  }

  @Test
  void theSerializerKeepsKeyPartitionKindAndRecordAndRereadsTheOrdering() throws IOException {
    WriteRecordSerializer s = new WriteRecordSerializer(SCHEMA, Optional.of("ts"));
    WriteRecord soft = new WriteRecord("a", "p/q", rec("a", "p/q", 7, "x").data(), 7L, WriteRecord.DeleteKind.SOFT);
    WriteRecord hard = new WriteRecord("b", "", null, Ordering.NATURAL, WriteRecord.DeleteKind.HARD);
    for (WriteRecord r : List.of(soft, hard, rec("c", "p", 9, "é鍵"))) {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      s.write(r, new java.io.DataOutputStream(bytes));
      WriteRecord back = s.read(new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())));
      assertEquals(r.key(), back.key());
      assertEquals(r.partitionPath(), back.partitionPath());
      assertEquals(r.delete(), back.delete());
      assertEquals(r.ordering(), back.ordering());
      if (r.data() == null) {
        assertNull(back.data());
      } else {
        assertEquals(r.data().toString(), back.data().toString());
      }
      assertTrue(s.estimateSize(r) > 0);
    }
  }
}
