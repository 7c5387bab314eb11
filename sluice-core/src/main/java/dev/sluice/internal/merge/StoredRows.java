package dev.sluice.internal.merge;

import dev.sluice.internal.basefile.RowCopier;
import dev.sluice.internal.key.FieldPath;
import dev.sluice.api.CloseableIterator;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.avro.generic.GenericRecord;

/**
 * A base file's rows as {@link KeyedMerge} walks them, one at a time: probe the changes by the row's key in the
 * cheapest form the row has it, read its ordering value, then keep or drop it. Kept rows go wherever the rows were
 * opened to send them (a column-to-column copy into a writer, or a consumer of records).
 */
public interface StoredRows extends AutoCloseable {
  /** Moves to the next row; false after the last. */
  boolean next();

  /** Takes the change of the current row's key from {@code changes}, if there is one. */
  <C> Optional<C> takeChange(KeyedChanges<C> changes);

  /** The current row's ordering value as the row holds it (Avro's {@code Utf8} for strings), null without one. */
  Object ordering();

  /** The current row as a record, if these rows are read as records (not copied column to column). */
  default Optional<GenericRecord> current() {
    return Optional.empty();
  }

  /** Keeps the current row (copies it, or hands it on). */
  void keep();

  /** Leaves the current row out. */
  void drop();

  /** Releases the rows' source. */
  @Override
  void close();

  /** No rows: a file slice without a base file. */
  static StoredRows none() {
    return new StoredRows() {
      @Override
      public boolean next() {
        return false;
      }

      @Override
      public <C> Optional<C> takeChange(KeyedChanges<C> changes) {
        return Optional.empty();
      }

      @Override
      public Object ordering() {
        return null;
      }

      @Override
      public void keep() {
        // never called: there is no current row
      }

      @Override
      public void drop() {
        // never called: there is no current row
      }

      @Override
      public void close() {
        // nothing is held open
      }
    };
  }

  /**
   * The rows of a base file copied column to column into the writer the copier was opened on (the fast path of a
   * rewrite: kept rows are never built as records); the key is the copier's decoded record key.
   */
  static StoredRows copied(RowCopier copier) {
    return new StoredRows() {
      @Override
      public boolean next() {
        return copier.next();
      }

      @Override
      public <C> Optional<C> takeChange(KeyedChanges<C> changes) {
        return changes.take(copier.key());
      }

      @Override
      public Object ordering() {
        return copier.ordering();
      }

      @Override
      public void keep() {
        copier.copy();
      }

      @Override
      public void drop() {
        copier.drop();
      }

      @Override
      public void close() {
        copier.close();
      }
    };
  }

  /**
   * Rows read as records; kept ones go to {@code kept}.
   *
   * @param rows the records, closed with these rows
   * @param keyPosition where the records hold {@code _hoodie_record_key}, -1 if they do not (no row then has a change)
   * @param ordering the ordering field in the records' schema, if they have it
   */
  static StoredRows records(CloseableIterator<GenericRecord> rows, int keyPosition, Optional<FieldPath> ordering,
      Consumer<GenericRecord> kept) {
    FieldPath orderingField = ordering.orElse(null);
    return new StoredRows() {
      private GenericRecord current;

      @Override
      public boolean next() {
        if (!rows.hasNext()) {
          current = null;
          return false;
        }
        current = rows.next();
        return true;
      }

      @Override
      public <C> Optional<C> takeChange(KeyedChanges<C> changes) {
        return keyPosition < 0 ? Optional.empty() : changes.takeKeyOf(current.get(keyPosition));
      }

      @Override
      public Object ordering() {
        return orderingField == null ? null : orderingField.get(current);
      }

      @Override
      public Optional<GenericRecord> current() {
        return Optional.ofNullable(current);
      }

      @Override
      public void keep() {
        kept.accept(current);
      }

      @Override
      public void drop() {
        // a record left out is simply not handed on
      }

      @Override
      public void close() {
        rows.close();
      }
    };
  }
}
