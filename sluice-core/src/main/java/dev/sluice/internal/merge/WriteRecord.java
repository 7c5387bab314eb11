package dev.sluice.internal.merge;

import org.apache.avro.generic.GenericRecord;

/**
 * One incoming record on its way through a write: its key, partition path, ordering value and whether it
 * deletes. It lives here, below both the index (which tags it with its file group) and the write (which plans
 * and merges it), because it is what the keyed merge takes from the incoming side.
 *
 * @param key the record key
 * @param partitionPath relative partition path
 * @param data the record in the table's user schema; null for a key-only delete
 * @param ordering the precombine value ({@link Ordering#NATURAL} without a precombine field)
 * @param delete what kind of delete this is, if any
 */
@SuppressWarnings("rawtypes")
public record WriteRecord(String key, String partitionPath, GenericRecord data, Comparable ordering, DeleteKind delete) {

  /** Kinds of deletes. */
  public enum DeleteKind {
    /** Not a delete. */
    NONE,
    /** A delete from the delete operation: removes the row whatever its ordering. */
    HARD,
    /** {@code _hoodie_is_deleted = true} in an upsert: removes the row subject to the merge mode's ordering. */
    SOFT
  }

  /** True if the record deletes its key. */
  public boolean isDelete() {
    return delete != DeleteKind.NONE;
  }

  /** This record moved to another partition (global index, partition change). */
  public WriteRecord inPartition(String partition) {
    return new WriteRecord(key, partition, data, ordering, delete);
  }

  /** A hard delete of this record's key in {@code partition}. */
  public WriteRecord asDeleteIn(String partition) {
    return new WriteRecord(key, partition, null, ordering, DeleteKind.HARD);
  }
}
