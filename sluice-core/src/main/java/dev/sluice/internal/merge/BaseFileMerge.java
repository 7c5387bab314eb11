package dev.sluice.internal.merge;

import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.basefile.BaseFileWriter;
import dev.sluice.internal.basefile.MergeRead;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.basefile.RowCopier;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * A base file rewritten with keyed changes into a new base file (a Copy-on-Write merge, a compaction): the
 * {@link KeyedMerge} of its rows, with the kept rows copied column to column when the file's layout allows it
 * ({@link RowCopier}: most rows are kept, and building them as records was most of a merge's time), else read as
 * records and carried over. Replacing and inserted rows are the target's to write.
 */
public final class BaseFileMerge {
  private BaseFileMerge() {
  }

  /**
   * Merges {@code reader}'s rows with {@code changes} into {@code writer}.
   *
   * @param precombine the table's precombine field, if any
   * @param fileName the new file's name, for the kept rows' {@code _hoodie_file_name}
   * @param carry how a kept row read as a record becomes a row of the new file
   */
  public static <C> void rewrite(BaseFileReader reader, BaseFileWriter writer, Optional<String> precombine,
      String fileName, UnaryOperator<GenericRecord> carry, RecordMerger merger, KeyedChanges<C> changes,
      KeyedMerge.Target<C> target) {
    // kept and replaced keys are in the old file's filter already: only new keys are hashed
    reader.bloomFilter().ifPresent(b -> writer.continueBloom(b, reader.footer().rowCount()));
    MergeRead read = MergeRead.open(reader, writer, precombine, fileName);
    StoredRows rows;
    if (read.copier().isPresent() && !changes.partial()) {
      rows = StoredRows.copied(read.copier().get());
    } else {
      Schema fileSchema = reader.footer().schema();
      Schema.Field key = fileSchema.getField(MetaFields.RECORD_KEY);
      rows = StoredRows.records(reader.read(fileSchema), key == null ? -1 : key.pos(), read.ordering(),
          row -> writer.writeReplacing(carry.apply(row)));
    }
    try (KeyedMerge<C> merge = new KeyedMerge<>(merger, rows, changes, target)) {
      merge.run();
    }
  }
}
