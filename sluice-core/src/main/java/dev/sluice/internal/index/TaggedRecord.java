package dev.sluice.internal.index;

import dev.sluice.internal.merge.WriteRecord;
import java.util.Optional;

/**
 * An incoming record and the file group that already holds its key, if any (then it is an update).
 *
 * @param record the incoming record
 * @param location the current location of its key; empty for an insert
 */
public record TaggedRecord(WriteRecord record, Optional<Location> location) {
  /** An untagged (insert) record. */
  public static TaggedRecord insert(WriteRecord record) {
    return new TaggedRecord(record, Optional.empty());
  }
}
