package dev.sluice.internal.merge;

import dev.sluice.internal.error.Errors;
import dev.sluice.api.CloseableIterator;
import java.util.Optional;

/**
 * The one merge of a base file's rows with keyed changes, for a Copy-on-Write rewrite, a compaction and a snapshot
 * read alike: the rows in file order, each kept, replaced by its key's change or dropped by a delete (as
 * {@link RecordMerger#outcome} decides), then the changes of keys no row held, deletes left out. Where the output
 * goes is the {@link Target}'s (and, for kept rows, the {@link StoredRows}') business. One step at a time, so that a
 * reader can pull rows and a writer can push them; not thread-safe. Closing closes the rows and the remaining
 * changes' iterator; the changes themselves stay the caller's.
 *
 * @param <C> the change type
 */
public final class KeyedMerge<C> implements AutoCloseable {
  private final RecordMerger merger;
  private final StoredRows rows;
  private final KeyedChanges<C> changes;
  private final Target<C> target;
  private boolean rowsDone;
  private CloseableIterator<C> rest;
  private boolean closed;

  /** What the merge's output does with each outcome; kept rows went out through the {@link StoredRows} already. */
  public interface Target<C> {
    /** A stored row was kept. */
    default void kept() {
    }

    /**
     * {@code change} lost to the stored row of its key (event-time ordering: the stored ordering value is larger), so
     * the row was kept ({@link #kept()} is called too).
     */
    default void outvoted(C change) {
    }

    /** {@code change} deletes a key no stored row held: nothing to delete. */
    default void unmatchedDelete(C change) {
    }

    /** {@code change} replaces a stored row (the row is dropped). */
    void replace(C change);

    /** {@code change} deletes a stored row (the row is dropped). */
    default void delete(C change) {
    }

    /** {@code change}, not a delete, is for a key no stored row held. */
    void insert(C change);
  }

  /** A merge of {@code rows} with {@code changes} into {@code target}; reads nothing until {@link #step()}. */
  public KeyedMerge(RecordMerger merger, StoredRows rows, KeyedChanges<C> changes, Target<C> target) {
    this.merger = merger;
    this.rows = rows;
    this.changes = changes;
    this.target = target;
  }

  /**
   * Merges the next stored row or, once the rows are done, hands the next remaining change on (deletes are skipped);
   * false when both are done.
   */
  public boolean step() {
    if (!rowsDone) {
      if (rows.next()) {
        mergeRow();
        return true;
      }
      rowsDone = true;
      rest = changes.rest();
    }
    while (rest.hasNext()) {
      C c = rest.next();
      if (!changes.deletes(c)) {
        target.insert(changes.alone(c));
        return true;
      }
      target.unmatchedDelete(c);
    }
    return false;
  }

  /** Runs every step. */
  public void run() {
    while (step()) {
      // each step writes into the target
    }
  }

  @SuppressWarnings("rawtypes")
  private void mergeRow() {
    Optional<C> found = changes.isEmpty() ? Optional.empty() : rows.takeChange(changes);
    if (found.isEmpty()) {
      rows.keep();
      target.kept();
      return;
    }
    C c = found.get();
    Comparable stored = Ordering.normalize(rows.ordering());
    switch (merger.outcome(stored, changes.ordering(c), changes.hardDelete(c), changes.deletes(c))) {
      case KEEP -> {
        rows.keep();
        target.kept();
        target.outvoted(c);
      }
      case REPLACE -> {
        // a partial update takes the columns it lacks from the row it replaces (read before dropping it)
        C replacing = changes.partial() ? changes.fill(c, rows.current().orElseThrow(() -> Errors.internal(
            "a partial update met a base row not read as a record", null))) : c;
        rows.drop();
        target.replace(replacing);
      }
      case DELETE -> {
        rows.drop();
        target.delete(c);
      }
      default -> throw Errors.internal("unknown merge outcome", null);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (rest != null) {
        rest.close();
      }
    } finally {
      rows.close();
    }
  }
}
