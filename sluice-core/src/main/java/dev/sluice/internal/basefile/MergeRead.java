package dev.sluice.internal.basefile;

import dev.sluice.internal.key.FieldPath;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * How a merge (a Copy-on-Write merge handle, a compaction) reads the base file it rewrites: the file's ordering
 * (precombine) field, if the file has it, and a column-to-column copier for the kept rows when the file's layout
 * allows one. A nested ordering field rules the copier out: it reads top-level columns only.
 *
 * @param ordering the ordering field in the file's schema; empty without a precombine field or when the file lacks it
 * @param copier the copier for the kept rows; empty to read the rows as records
 */
public record MergeRead(Optional<FieldPath> ordering, Optional<RowCopier> copier) {

  /** Resolves the ordering field of {@code reader}'s file and opens a copier into {@code writer} if one fits. */
  public static MergeRead open(BaseFileReader reader, BaseFileWriter writer, Optional<String> precombine,
      String fileName) {
    Schema fileSchema = reader.footer().schema();
    Optional<FieldPath> ordering = precombine.filter(p -> fileSchema.getField(p.split("\\.")[0]) != null)
        .map(p -> FieldPath.resolve(fileSchema, p, "precombine"));
    Optional<String> topLevel = ordering.isEmpty() ? Optional.empty() : precombine.filter(p -> !p.contains("."));
    Optional<RowCopier> copier = ordering.isPresent() && topLevel.isEmpty() ? Optional.empty()
        : RowCopier.open(reader, writer, topLevel, fileName);
    return new MergeRead(ordering, copier);
  }
}
