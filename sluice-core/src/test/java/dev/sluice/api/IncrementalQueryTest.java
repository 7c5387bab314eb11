package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.WriteModel.Version;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Incremental queries over random sequences of inserts, updates (some late: a smaller ordering value than the
 * stored one), deletes and re-inserts, on Copy-on-Write and Merge-on-Read tables, for every range of commits:
 * the rows equal what the sequence of writes implies ({@link WriteModel}), with and without deleted rows.
 */
class IncrementalQueryTest {
  static final String BEGINNING = "00000000000000000";
  private static final int COMMITS = 7;
  private static final int PARTS = 3;

  @TempDir
  Path dir;

  /** A table of each kind: CoW; MoR with updates in logs; MoR whose small file groups take inserts and updates. */
  static Table table(Path dir, String kind) {
    return switch (kind) {
      case "cow" -> TripFixture.create(dir, TripFixture.spec().tableVersion(6).build(), Map.of());
      case "mor" -> TripFixture.create(dir, TripFixture.spec().tableVersion(6).type(TableType.MERGE_ON_READ).build(),
          Map.of("hoodie.parquet.small.file.limit", "0"));
      case "mor-small-files" -> TripFixture.create(dir, TripFixture.spec().tableVersion(6).type(TableType.MERGE_ON_READ).build(),
          Map.of());
      default -> throw new IllegalArgumentException(kind);
    };
  }

  /** Writes {@code commits} random commits (the first an insert) and returns the model of what they did. */
  static WriteModel writeSequence(Table t, long seed, int commits) {
    WriteModel model = new WriteModel();
    writeCommits(t, new Random(seed), model, new TreeSet<>(), 0, commits);
    return model;
  }

  /**
   * Writes commits number {@code from} (inclusive) to {@code to} (exclusive) of a random sequence into {@code model}:
   * commit 0 inserts, every third deletes a few live keys, the others upsert ({@link WriteModel#batch}).
   */
  static void writeCommits(Table t, Random rnd, WriteModel model, TreeSet<String> deletedKeys, int from, int to) {
    for (int n = from; n < to; n++) {
      // deletes in commits 2 and 5, so that ranges of every width hold some
      if (n % 3 == 2 && model.liveKeys().size() > 3) {
        List<String> live = model.liveKeys();
        List<GenericRecord> keys = new ArrayList<>();
        TreeSet<String> ids = new TreeSet<>();
        for (int i = 0; i < 1 + rnd.nextInt(3); i++) {
          ids.add(live.get(rnd.nextInt(live.size())));
        }
        for (String id : ids) {
          GenericData.Record k = new GenericData.Record(t.keySchema());
          k.put("id", id);
          k.put("part", model.get(id).part());
          keys.add(k);
        }
        String instant = t.delete(keys.iterator()).instantTime();
        model.delete(ids, instant);
        deletedKeys.addAll(ids);
      } else {
        List<GenericRecord> batch = WriteModel.batch(rnd, model, n, PARTS, deletedKeys);
        String instant = (n == 0 ? t.insert(batch.iterator()) : t.upsert(batch.iterator())).instantTime();
        model.upsert(batch, instant);
      }
    }
  }

  /** Rows of an incremental scan with meta columns, split into live rows and deleted rows (by partition/id). */
  static Map<Boolean, Map<String, Version>> read(Scan scan) {
    Map<Boolean, Map<String, Version>> out = new TreeMap<>();
    out.put(false, new TreeMap<>());
    out.put(true, new TreeMap<>());
    try (CloseableIterator<GenericRecord> it = scan.withMetaColumns(true).open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        boolean deleted = r.getSchema().getField("_hoodie_is_deleted") != null && (Boolean) r.get("_hoodie_is_deleted");
        Version v = WriteModel.of(r);
        Version twice = out.get(deleted).put(v.hoodieKey(), v);
        if (twice != null) {
          throw new AssertionError(v.hoodieKey() + " returned twice: " + twice + " and " + v);
        }
      }
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"cow", "mor", "mor-small-files"})
  void everyRangeReturnsTheLatestStateOfTheRecordsItWrote(String kind) {
    Table t = table(dir, kind);
    WriteModel model = writeSequence(t, 42L + kind.hashCode(), COMMITS);
    List<String> instants = model.instants();
    assertEquals(COMMITS, instants.size());
    List<String> begins = new ArrayList<>();
    begins.add(BEGINNING);
    begins.addAll(instants);
    int nonEmpty = 0;
    for (int i = 0; i < begins.size(); i++) {
      String begin = begins.get(i);
      for (int j = Math.max(0, i - 1); j < instants.size(); j++) {
        String end = instants.get(j);
        String range = kind + " (" + begin + ", " + end + "]";
        Map<Boolean, Map<String, Version>> plain = read(t.newScan().incremental(begin, end));
        assertEquals(model.incremental(begin, end), plain.get(false), range);
        assertTrue(plain.get(true).isEmpty(), range);
        Map<Boolean, Map<String, Version>> withDeletes = read(t.newScan().incremental(begin, end).includeDeletes(true));
        assertEquals(model.incremental(begin, end), withDeletes.get(false), range + " with deletes");
        assertEquals(model.deleted(begin, end), withDeletes.get(true), range + " deleted rows");
        nonEmpty += plain.get(false).isEmpty() ? 0 : 1;
      }
      String last = instants.get(instants.size() - 1);
      Map<Boolean, Map<String, Version>> open = read(t.newScan().incremental(begin).includeDeletes(true));
      assertEquals(model.incremental(begin, last), open.get(false), kind + " from " + begin);
      assertEquals(model.deleted(begin, last), open.get(true), kind + " deleted from " + begin);
    }
    assertTrue(nonEmpty > 12, "the ranges return rows");
    assertTrue(model.instants().stream().anyMatch(i -> !model.deleted(i, instants.get(instants.size() - 1)).isEmpty()),
        "some range has deleted rows");
  }
}
