package dev.sluice.internal.merge;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Column-wise merge of Hudi 1.x partial updates (log data blocks with {@code IS_PARTIAL=true}, whose schema holds
 * only the updated columns): the winning version of a key gives the columns it has, the losing one the others.
 * Which version wins is the merge mode's business ({@link RecordMerger}); this only combines the two rows, as Hudi
 * 1.1.1's Spark mergers do ({@code SparkRecordMergingUtils.mergePartialRecords}: the higher-ordered record's fields
 * first, then the lower one's for fields the higher one lacks). A row that is not partial has every column.
 */
public final class PartialUpdate {
  private PartialUpdate() {
  }

  /**
   * The row in {@code high}'s schema holding {@code high}'s value for each column of {@code highColumns} and
   * {@code low}'s for every other one.
   *
   * @param high the winning version (its record holds null in the columns it lacks)
   * @param highColumns the columns {@code high} has; empty if it has all (then the result is {@code high})
   * @param low the losing version, in a schema with the same field names
   */
  public static GenericRecord overlay(GenericRecord high, Optional<Set<String>> highColumns, GenericRecord low) {
    if (highColumns.isEmpty()) {
      return high;
    }
    Schema schema = high.getSchema();
    GenericData.Record out = new GenericData.Record(schema);
    for (Schema.Field f : schema.getFields()) {
      boolean fromHigh = highColumns.get().contains(f.name());
      Schema.Field lowField = fromHigh ? null : low.getSchema().getField(f.name());
      out.put(f.pos(), fromHigh || lowField == null ? high.get(f.pos()) : low.get(lowField.pos()));
    }
    return out;
  }

  /** The columns of a merge of two versions with {@code a} and {@code b} columns: empty (all) if either has all. */
  public static Optional<Set<String>> union(Optional<Set<String>> a, Optional<Set<String>> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return Optional.empty();
    }
    Set<String> all = new HashSet<>(a.get());
    all.addAll(b.get());
    return Optional.of(Set.copyOf(all));
  }
}
