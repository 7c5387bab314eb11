package dev.sluice.internal.merge;

import dev.sluice.api.MergeMode;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.internal.key.FieldPath;
import dev.sluice.api.CloseableIterator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

/**
 * The one keyed merge: stored rows kept, replaced or deleted by their key's change as the merge mode decides, then
 * the changes of keys no row held, deletes left out; keys probed as Avro {@code Utf8}, as base files give them.
 */
class KeyedMergeTest {
  private static final Schema ROW = SchemaBuilder.record("row").fields()
      .requiredString("key").requiredLong("ts").requiredString("v").endRecord();

  /** A change in the test: its ordering value, delete kind and new value. */
  private record Change(String key, long ts, boolean hard, boolean soft, String v) {
  }

  @Test
  void eventTimeOrderingKeepsNewerStoredRowsAndHardDeletesAlwaysWin() {
    List<String> out = merge(MergeMode.EVENT_TIME_ORDERING);
    assertEquals(List.of(
        "keep a@5",        // no change
        "keep b@5",        // the change is older (ts 4)
        "replace c@6",     // the change is newer
        "delete d",        // a hard delete wins whatever its ordering
        "keep e@5",        // a soft delete loses like any older change
        "delete f",        // a newer soft delete removes the row
        "insert x@1"),     // no row had x; y was a delete of an unknown key
        out);
  }

  @Test
  void commitTimeOrderingTakesEveryChange() {
    assertEquals(List.of("keep a@5", "replace b@4", "replace c@6", "delete d", "delete e", "delete f", "insert x@1"),
        merge(MergeMode.COMMIT_TIME_ORDERING));
  }

  private static List<String> merge(MergeMode mode) {
    List<GenericRecord> rows = new ArrayList<>();
    for (String k : List.of("a", "b", "c", "d", "e", "f")) {
      GenericData.Record r = new GenericData.Record(ROW);
      r.put("key", new Utf8(k));
      r.put("ts", 5L);
      r.put("v", "stored");
      rows.add(r);
    }
    Map<String, Change> changes = new LinkedHashMap<>();
    for (Change c : List.of(new Change("b", 4, false, false, "old"), new Change("c", 6, false, false, "new"),
        new Change("d", 0, true, false, null), new Change("e", 1, false, true, null),
        new Change("f", 9, false, true, null), new Change("x", 1, false, false, "new"),
        new Change("y", 0, true, false, null))) {
      changes.put(c.key(), c);
    }
    List<String> out = new ArrayList<>();
    StoredRows stored = StoredRows.records(CloseableIterator.of(rows), 0,
        Optional.of(FieldPath.resolve(ROW, "ts", "precombine")), r -> out.add("keep " + r.get("key") + "@" + r.get("ts")));
    KeyedMerge.Target<Change> target = new KeyedMerge.Target<>() {
      @Override
      public void replace(Change c) {
        out.add("replace " + c.key() + "@" + c.ts());
      }

      @Override
      public void delete(Change c) {
        out.add("delete " + c.key());
      }

      @Override
      public void insert(Change c) {
        out.add("insert " + c.key() + "@" + c.ts());
      }
    };
    try (KeyedMerge<Change> merge = new KeyedMerge<>(new RecordMerger(mode), stored, new MapChanges(changes), target)) {
      merge.run();
    }
    return out;
  }

  /** Changes in a map, taken by key. */
  private static final class MapChanges implements KeyedChanges<Change> {
    private final Map<String, Change> byKey;

    MapChanges(Map<String, Change> byKey) {
      this.byKey = byKey;
    }

    @Override
    public boolean isEmpty() {
      return byKey.isEmpty();
    }

    @Override
    public Optional<Change> take(String key) {
      return Optional.ofNullable(byKey.remove(key));
    }

    @Override
    public CloseableIterator<Change> rest() {
      return CloseableIterator.of(List.copyOf(byKey.values()));
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Comparable ordering(Change c) {
      return c.ts();
    }

    @Override
    public boolean hardDelete(Change c) {
      return c.hard();
    }

    @Override
    public boolean deletes(Change c) {
      return c.hard() || c.soft();
    }
  }
}
