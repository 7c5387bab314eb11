package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

import org.apache.avro.generic.GenericRecord;

/**
 * What a table must hold, computed in the test from the inputs alone: per partition path and record key (both
 * derived as Hudi's key generators do, by functions the test gives), the data fields and the commit that wrote
 * them. Upserts follow the given ordering: with event-time ordering a stored row with a larger precombine value
 * survives (a tie goes to the incoming row); otherwise the incoming row always wins.
 */
final class ExpectedTable {

  /** One expected row: canonical data fields, precombine value and the commit that wrote it. */
  record Entry(String recordKey, String partition, Map<String, Object> data, long ordering, String commitTime) {
  }

  /** A write that returns its instant time. */
  interface Write {
    String run(List<GenericRecord> records);
  }

  private final Function<GenericRecord, String> recordKey;
  private final Function<GenericRecord, String> partitionPath;
  private final boolean eventTimeOrdering;
  private final TreeMap<String, Entry> rows = new TreeMap<>();

  ExpectedTable(Function<GenericRecord, String> recordKey, Function<GenericRecord, String> partitionPath,
      boolean eventTimeOrdering) {
    this.recordKey = recordKey;
    this.partitionPath = partitionPath;
    this.eventTimeOrdering = eventTimeOrdering;
  }

  /** Seeds the model with rows a reader returned (meta columns give key, partition and commit). */
  void seed(List<GenericRecord> rowsWithMeta) {
    for (GenericRecord r : rowsWithMeta) {
      String key = Rows.text(r, Rows.RECORD_KEY);
      String partition = Rows.text(r, Rows.PARTITION);
      rows.put(id(partition, key), new Entry(key, partition, Rows.data(r), (Long) r.get("ts"),
          Rows.text(r, Rows.COMMIT_TIME)));
    }
  }

  /** Runs an insert or upsert and records its effect; returns the instant. */
  String upsert(List<GenericRecord> records, Write write) {
    List<Entry> incoming = new ArrayList<>();
    for (GenericRecord r : records) {
      // canonical form taken before the writer sees the record
      incoming.add(new Entry(recordKey.apply(r), partitionPath.apply(r), Rows.data(r), (Long) r.get("ts"), null));
    }
    String instant = write.run(records);
    for (Entry e : incoming) {
      String id = id(e.partition(), e.recordKey());
      Entry stored = rows.get(id);
      if (stored != null && eventTimeOrdering && stored.ordering() > e.ordering()) {
        continue;
      }
      rows.put(id, new Entry(e.recordKey(), e.partition(), e.data(), e.ordering(), instant));
    }
    return instant;
  }

  /** Runs a delete of the records' keys and records its effect; returns the instant. */
  String delete(List<GenericRecord> records, Write write) {
    List<String> ids = new ArrayList<>();
    for (GenericRecord r : records) {
      ids.add(id(partitionPath.apply(r), recordKey.apply(r)));
    }
    String instant = write.run(records);
    ids.forEach(rows::remove);
    return instant;
  }

  /** The expected rows, in the oracle's order (record key, then partition). */
  List<Entry> entries() {
    return ordered(rows);
  }

  /** A snapshot of the current state (for time-travel checks later). */
  Map<String, Entry> snapshot() {
    return new LinkedHashMap<>(rows);
  }

  /**
   * Asserts that {@code actual} (a reader's rows with meta columns) holds exactly the expected rows: keys,
   * partition paths, data fields, commit times, and sequence numbers of that commit.
   */
  void assertHeldBy(List<GenericRecord> actual, String reader) {
    assertHeldBy(entries(), actual, reader);
  }

  static void assertHeldBy(List<Entry> expected, List<GenericRecord> actual, String reader) {
    check(expected, actual, reader, true);
  }

  private static void check(List<Entry> expected, List<GenericRecord> actual, String reader, boolean baseFiles) {
    List<GenericRecord> sorted = Rows.sorted(actual);
    List<String> wantKeys = new ArrayList<>();
    expected.forEach(e -> wantKeys.add(e.partition() + "|" + e.recordKey()));
    assertEquals(wantKeys, Rows.keys(sorted), reader + ": partition|record key of every row");
    for (int i = 0; i < expected.size(); i++) {
      Entry want = expected.get(i);
      GenericRecord got = sorted.get(i);
      String where = reader + ", row " + want.partition() + "|" + want.recordKey();
      assertEquals(want.data(), Rows.data(got), where + ": data fields");
      assertEquals(want.commitTime(), Rows.text(got, Rows.COMMIT_TIME), where + ": " + Rows.COMMIT_TIME);
      if (!baseFiles) {
        continue;
      }
      String seqno = Rows.text(got, Rows.SEQNO);
      assertTrue(seqno != null && seqno.startsWith(want.commitTime() + "_"), where + ": " + Rows.SEQNO + " " + seqno);
      String file = Rows.text(got, Rows.FILE_NAME);
      assertTrue(file != null && file.endsWith(".parquet"), where + ": " + Rows.FILE_NAME + " " + file);
    }
  }

  private static String id(String partition, String key) {
    return partition + "|" + key;
  }

  /** Entries of a snapshot in the oracle's order. */
  static List<Entry> ordered(Map<String, Entry> snapshot) {
    List<Entry> out = new ArrayList<>(snapshot.values());
    out.sort((a, b) -> a.recordKey().equals(b.recordKey()) ? a.partition().compareTo(b.partition())
        : a.recordKey().compareTo(b.recordKey()));
    return out;
  }

  /**
   * As {@link #assertHeldBy(List, String)} for rows of a Merge-on-Read snapshot: keys, partition paths, data fields
   * and commit times, without the base-file-name check (rows merged from logs name their file group).
   */
  void assertHeldByMerged(List<GenericRecord> actual, String reader) {
    check(entries(), actual, reader, false);
  }

  /**
   * Checks that Hudi's snapshot of {@code location} and Sluice's scan of {@code table} both hold this model
   * ({@link #assertHeldByMerged}) and agree with each other.
   */
  void assertBothHold(HudiOracle oracle, Path location, Table table, String when) {
    List<GenericRecord> hudi = oracle.read(location, "snapshot", Optional.empty());
    assertHeldByMerged(hudi, "Hudi, " + when);
    List<GenericRecord> sluice = Rows.scan(table, Optional.empty());
    assertHeldByMerged(sluice, "Sluice, " + when);
    Rows.assertSameRows(hudi, sluice, "Hudi vs Sluice, " + when);
  }
}
