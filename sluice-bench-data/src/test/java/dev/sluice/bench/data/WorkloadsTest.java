package dev.sluice.bench.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class WorkloadsTest {
  private final Workloads w = new Workloads(42);

  @Test
  void recordsAreAPureFunctionOfSeedIndexAndVersion() {
    Workloads again = new Workloads(42);
    for (long i = 0; i < 200; i++) {
      assertEquals(w.records().record(i, 3), again.records().record(i, 3));
    }
    assertNotEquals(w.records().record(7, 0), w.records().record(7, 1));
    assertNotEquals(w.records().key(7), new Workloads(43).records().key(7));
    assertEquals(Workloads.digest(w.initial(500)), Workloads.digest(again.initial(500)));
    assertNotEquals(Workloads.digest(w.initial(500)), Workloads.digest(new Workloads(43).initial(500)));
  }

  @Test
  void recordsMatchTheSchemaAndAverageAbout150Bytes() throws IOException {
    List<GenericRecord> rows = w.initial(20_000);
    GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(BenchRecords.SCHEMA);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    for (GenericRecord r : rows) {
      assertTrue(GenericData.get().validate(BenchRecords.SCHEMA, r), r::toString);
      writer.write(r, enc);
    }
    enc.flush();
    double avg = out.size() / (double) rows.size();
    assertTrue(avg > 130 && avg < 170, "average record size " + avg);
  }

  @Test
  void keysAreUniqueAndPartitionsSpreadEvenly() {
    Set<String> keys = new HashSet<>();
    Map<String, Integer> parts = new HashMap<>();
    int n = 50_000;
    for (long i = 0; i < n; i++) {
      assertTrue(keys.add(w.records().key(i)));
      parts.merge(w.records().partition(i), 1, Integer::sum);
    }
    assertEquals(BenchRecords.PARTITIONS, parts.size());
    for (int c : parts.values()) {
      assertTrue(Math.abs(c - n / BenchRecords.PARTITIONS) < n / 50, "partition sizes " + parts);
    }
    // uniform over the key space: each leading hex digit about 1/16 of the keys
    Map<Character, Integer> lead = new HashMap<>();
    keys.forEach(k -> lead.merge(k.charAt(0), 1, Integer::sum));
    assertEquals(16, lead.size());
    lead.values().forEach(c -> assertTrue(Math.abs(c - n / 16) < n / 80, "leading digits " + lead));
  }

  @Test
  void upsertBatchIsHalfUpdatesOfDistinctExistingKeysHalfNewKeys() {
    long table = 10_000;
    List<GenericRecord> batch = w.upsert(2, table, 1001);
    assertEquals(1001, batch.size());
    Map<String, Long> existing = new HashMap<>();
    for (long i = 0; i < table; i++) {
      existing.put(w.records().key(i), i);
    }
    Set<String> seen = new HashSet<>();
    int updates = 0;
    for (GenericRecord r : batch) {
      String key = r.get("key").toString();
      assertTrue(seen.add(key), "duplicate key " + key);
      Long idx = existing.get(key);
      if (idx != null) {
        updates++;
        assertEquals(w.records().partition(idx), r.get("part"));
        assertTrue((Long) r.get("ts") > BenchRecords.ordering(idx, 1));
      }
    }
    assertEquals(500, updates);
    assertEquals(Workloads.sizeAfter(table, 1, 1001), table + 501);
    // new keys are the next indexes, so a later batch can update them
    assertTrue(seen.contains(w.records().key(table)));
    assertTrue(seen.contains(w.records().key(table + 500)));
  }

  @Test
  void deletesAndLookupsAreDistinctExistingRecords() {
    List<GenericRecord> dels = w.deletes(5_000, 700);
    Set<Object> keys = new HashSet<>();
    dels.forEach(r -> keys.add(r.get("key")));
    assertEquals(700, keys.size());
    List<Long> look = w.lookups(5_000, 300);
    assertEquals(300, new HashSet<>(look).size());
    look.forEach(i -> assertTrue(i >= 0 && i < 5_000));
  }

  @Test
  void streamYieldsTheInitialRecordsOneAtATime() {
    Iterator<GenericRecord> it = w.stream(300, 800);
    List<GenericRecord> streamed = new ArrayList<>();
    it.forEachRemaining(streamed::add);
    assertEquals(w.initial(800).subList(300, 800), streamed);
    assertFalse(it.hasNext());
    assertThrows(NoSuchElementException.class, it::next);
    assertFalse(w.stream(5, 5).hasNext());
    assertThrows(IllegalArgumentException.class, () -> w.stream(5, 4));
  }

  @Test
  void updateBatchesAreDistinctExistingKeysAtTheBatchVersionAndTheTsSumFollows() {
    long table = 3_000;
    int count = 400;
    Map<Long, Long> ts = new HashMap<>();
    Map<String, Long> indexOf = new HashMap<>();
    for (long i = 0; i < table; i++) {
      ts.put(i, BenchRecords.ordering(i, 0));
      indexOf.put(w.records().key(i), i);
    }
    for (int b = 1; b <= 3; b++) {
      List<GenericRecord> batch = w.updates(b, table, count);
      assertEquals(count, batch.size());
      Set<Object> keys = new HashSet<>();
      for (GenericRecord r : batch) {
        assertTrue(keys.add(r.get("key")), "duplicate key in batch " + b);
        Long i = indexOf.get(r.get("key").toString());
        assertTrue(i != null, "not an existing key: " + r.get("key"));
        assertEquals(w.records().record(i, b), r);
        ts.put(i, (Long) r.get("ts"));
      }
      long expected = ts.values().stream().mapToLong(Long::longValue).sum();
      assertEquals(expected, w.tsSumAfterUpdates(table, b, count), "after batch " + b);
    }
    // later batches draw other keys: the three batches overlap only by chance
    Set<Object> first = new HashSet<>();
    w.updates(1, table, count).forEach(r -> first.add(r.get("key")));
    long shared = w.updates(2, table, count).stream().filter(r -> first.contains(r.get("key"))).count();
    assertTrue(shared < count / 2, "batches 1 and 2 share " + shared + " keys");
    assertEquals(table * (table - 1) / 2, w.tsSumAfterUpdates(table, 0, count));
  }
}
