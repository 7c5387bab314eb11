package dev.sluice.internal.basefile;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * A row read in a wider schema than the one it shows: a record of {@code visible} (the query's output) whose
 * positions from {@code visible}'s field count on hold the extra fields a merge needs and the output does not (the
 * record key, the ordering field). A Merge-on-Read snapshot hands the base rows it keeps on as they are, with no copy
 * into an output record; the merge reads the extras by position. To everything else it is a record of
 * {@code visible} ({@link #getSchema()}, equality, text), so the extras never reach the caller.
 */
public final class WideRow extends GenericData.Record {
  private final int shown;
  private final Object[] extras;

  /** A row showing {@code visible}, with {@code width} positions in all (at least {@code visible}'s fields). */
  WideRow(Schema visible, int width) {
    super(visible);
    this.shown = visible.getFields().size();
    this.extras = new Object[width - shown];
  }

  @Override
  public void put(int i, Object v) {
    if (i < shown) {
      super.put(i, v);
    } else {
      extras[i - shown] = v;
    }
  }

  @Override
  public Object get(int i) {
    return i < shown ? super.get(i) : extras[i - shown];
  }
}
