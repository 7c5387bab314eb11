package dev.sluice.internal.write;

import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.merge.KeyedChanges;
import dev.sluice.internal.spill.SpillableMap;
import dev.sluice.api.CloseableIterator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The incoming versions (and deletes) of the keys a merged file group holds, taken one by one as its base file
 * streams by; held on the heap, or for a batch past the write memory budget in a {@link SpillableMap}. Closing
 * releases the spill files.
 */
interface PendingUpdates extends KeyedChanges<WriteRecord>, AutoCloseable {
  @Override
  @SuppressWarnings("rawtypes")
  default Comparable ordering(WriteRecord change) {
    return change.ordering();
  }

  @Override
  default boolean hardDelete(WriteRecord change) {
    return change.delete() == WriteRecord.DeleteKind.HARD;
  }

  @Override
  default boolean deletes(WriteRecord change) {
    return change.isDelete();
  }

  @Override
  void close();

  /** {@code updates} by record key, copied (the merge removes what it takes). */
  static PendingUpdates inMemory(Map<String, WriteRecord> updates) {
    Map<String, WriteRecord> pending = new HashMap<>(updates);
    return new PendingUpdates() {
      @Override
      public boolean isEmpty() {
        return pending.isEmpty();
      }

      @Override
      public Optional<WriteRecord> take(String key) {
        return Optional.ofNullable(pending.remove(key));
      }

      @Override
      public CloseableIterator<WriteRecord> rest() {
        return CloseableIterator.of(List.copyOf(pending.values()));
      }

      @Override
      public void close() {
        pending.clear();
      }
    };
  }

  /** The updates in {@code map}, which closing closes. */
  static PendingUpdates spilled(SpillableMap<WriteRecord> map) {
    return new PendingUpdates() {
      @Override
      public boolean isEmpty() {
        return map.size() == 0;
      }

      @Override
      public Optional<WriteRecord> take(String key) {
        return map.remove(key);
      }

      @Override
      public Optional<WriteRecord> take(byte[] utf8, int offset, int length) {
        return map.remove(utf8, offset, length);
      }

      @Override
      public CloseableIterator<WriteRecord> rest() {
        return map.entries().map(Map.Entry::getValue);
      }

      @Override
      public void close() {
        map.close();
      }
    };
  }
}
