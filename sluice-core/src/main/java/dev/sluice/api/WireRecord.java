package dev.sluice.api;

import java.io.Serializable;

/**
 * One prepared record of a write on its way between the tasks of a cluster engine: its key and partition (to
 * shuffle and combine by) and the record itself as bytes in the table schema (kind and data; see
 * {@link WriteUnits#prepare}). Made and read only by {@link WriteUnits}; the bytes are not a stable format.
 *
 * @param key the record key
 * @param partitionPath relative partition path
 * @param delete true if it deletes its key (a delete operation, or {@code _hoodie_is_deleted})
 * @param bytes the encoded record
 */
public record WireRecord(String key, String partitionPath, boolean delete, byte[] bytes) implements Serializable {
  private static final long serialVersionUID = 1L;

  /** What duplicates are combined by: partition and key ({@code global}: the key alone). */
  public String combineKey(boolean global) {
    return global ? key : partitionPath + '\u0000' + key;
  }
}
