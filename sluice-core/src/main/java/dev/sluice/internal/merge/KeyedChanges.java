package dev.sluice.internal.merge;

import dev.sluice.api.CloseableIterator;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;

/**
 * Changes to a file group held by record key (a write's incoming records, or a file slice's merged log records),
 * taken one by one as the base file's rows stream by; what is left afterwards belongs to keys the base file does not
 * hold. Also reads each change's ordering value and delete kind, so that {@link KeyedMerge} can decide without
 * knowing the change's type.
 *
 * @param <C> the change type
 */
public interface KeyedChanges<C> {
  /** True if no change is left to take. */
  boolean isEmpty();

  /** Removes and returns the change of {@code key}, if there is one. */
  Optional<C> take(String key);

  /**
   * {@link #take(String)} for the key whose UTF-8 bytes are {@code utf8[offset, offset + length)}: a base row's key
   * as the file holds it. Implementations that can probe bytes without building a {@code String} override this.
   */
  default Optional<C> take(byte[] utf8, int offset, int length) {
    return take(new String(utf8, offset, length, StandardCharsets.UTF_8));
  }

  /**
   * Takes the change of a base row's record key as the row holds it ({@code _hoodie_record_key}'s value): a
   * {@code Utf8} is probed by its bytes; null (a row without a key) has none.
   */
  default Optional<C> takeKeyOf(Object key) {
    if (key instanceof Utf8 u) {
      return take(u.getBytes(), 0, u.getByteLength());
    }
    return key == null ? Optional.empty() : take(key.toString());
  }

  /** The changes not taken (deletes included); close the iterator. */
  CloseableIterator<C> rest();

  /** The ordering (precombine) value of {@code change}, normalised ({@link Ordering#normalize}); may be null. */
  @SuppressWarnings("rawtypes")
  Comparable ordering(C change);

  /** True if {@code change} removes its key whatever the ordering values (the delete operation, a delete block). */
  boolean hardDelete(C change);

  /** True if {@code change} deletes its key (a hard delete, or {@code _hoodie_is_deleted = true}). */
  boolean deletes(C change);

  /**
   * True if some change may hold only some columns (a Hudi 1.x partial update): the stored rows must then be
   * records, so that {@link #fill} can complete it.
   */
  default boolean partial() {
    return false;
  }

  /**
   * {@code change} as a row of its own, for a key no stored row holds; fails for a change that cannot stand alone
   * (a partial update whose other columns nothing gives).
   */
  default C alone(C change) {
    return change;
  }

  /** {@code change} replacing {@code stored}: a partial change gets the columns it lacks from the stored row. */
  default C fill(C change, GenericRecord stored) {
    return change;
  }
}
