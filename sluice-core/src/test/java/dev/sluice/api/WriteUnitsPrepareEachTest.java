package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WriteUnits#prepareEach}: a record prepared only when pulled (nothing read ahead or held, which is what keeps
 * a distributed write's input partitions out of memory), the records {@link WriteUnits#prepare} gives once the
 * duplicates are combined by the combine key, and the same error for a bad record.
 */
class WriteUnitsPrepareEachTest {
  @TempDir
  Path dir;

  private Table table() {
    return Tables.create(dir.resolve("t").toString(), TableSpec.builder("trip").type(TableType.MERGE_ON_READ)
        .recordKey("id").precombine("ts").partitionBy("part").schema(DistributedWriteTest.SCHEMA).build(),
        Config.of(Map.of()));
  }

  /** An input that counts the records taken from it. */
  private static final class Counted implements Iterator<GenericRecord> {
    private final Iterator<GenericRecord> in;
    private int taken;

    Counted(List<GenericRecord> records) {
      this.in = records.iterator();
    }

    @Override
    public boolean hasNext() {
      return in.hasNext();
    }

    @Override
    public GenericRecord next() {
      taken++;
      return in.next();
    }
  }

  @Test
  void preparesARecordOnlyWhenPulledAndCombinedGivesWhatPrepareGives() {
    Table table = table();
    List<GenericRecord> input = new ArrayList<>(DistributedWriteTest.rows(0, 200, 2, "a"));
    // duplicates: older and newer versions of keys already in the input
    input.addAll(DistributedWriteTest.rows(50, 30, 1, "older"));
    input.addAll(DistributedWriteTest.rows(100, 30, 3, "newer"));
    try (DistributedWrite dw = DistributedWrite.begin(table, WriteOperation.UPSERT)) {
      WriteUnits units = WriteUnits.open(dw.context());
      assertTrue(units.combines());
      Counted counted = new Counted(input);
      Iterator<WireRecord> each = units.prepareEach(counted);
      assertEquals(0, counted.taken, "nothing read before the first record is pulled");
      List<WireRecord> pulled = new ArrayList<>();
      while (each.hasNext()) {
        pulled.add(each.next());
        assertEquals(pulled.size(), counted.taken, "one input record per prepared record, none ahead");
      }
      assertEquals(input.size(), pulled.size(), "no record combined or dropped on the way");

      boolean global = dw.context().globalIndex();
      Map<String, WireRecord> combined = new LinkedHashMap<>();
      for (WireRecord w : pulled) {
        combined.merge(w.combineKey(global), w, units::combine);
      }
      Map<String, WireRecord> expected = new LinkedHashMap<>();
      for (WireRecord w : units.prepare(input.iterator())) {
        assertEquals(null, expected.put(w.combineKey(global), w), "prepare combines within its input");
      }
      assertEquals(200, expected.size(), "200 keys, 60 of them given twice");
      assertEquals(expected.keySet(), combined.keySet());
      expected.forEach((k, w) -> {
        WireRecord c = combined.get(k);
        assertEquals(w.key(), c.key());
        assertEquals(w.partitionPath(), c.partitionPath());
        assertEquals(w.delete(), c.delete());
        assertArrayEquals(w.bytes(), c.bytes(), k);
      });
    }
  }

  @Test
  void aBadRecordFailsWhenPulledNamingItAsPrepareDoes() {
    Table table = table();
    List<GenericRecord> input = new ArrayList<>(DistributedWriteTest.rows(0, 3, 1, "a"));
    GenericRecord bad = new GenericData.Record(DistributedWriteTest.SCHEMA);
    bad.put("id", "k9");
    bad.put("part", "p0");
    bad.put("payload", "no ts");
    input.add(bad);
    try (DistributedWrite dw = DistributedWrite.begin(table, WriteOperation.UPSERT)) {
      WriteUnits units = WriteUnits.open(dw.context());
      Iterator<WireRecord> each = units.prepareEach(input.iterator());
      for (int i = 0; i < 3; i++) {
        each.next();
      }
      assertTrue(each.hasNext());
      SluiceException streamed = assertThrows(SluiceException.class, each::next);
      SluiceException whole = assertThrows(SluiceException.class, () -> units.prepare(input.iterator()));
      assertEquals(whole.getMessage(), streamed.getMessage());
      assertTrue(streamed.getMessage().contains("record 4"), streamed.getMessage());
      assertFalse(each.hasNext());
    }
  }
}
