package dev.sluice.internal.write;

import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.schema.SchemaEvolution;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;

/**
 * When a write widens a column's type (int to long, float to double), Hudi 0.15's readers cannot read the older base
 * files any more: Parquet refuses an int32 column requested as int64. So the same commit rewrites every latest base
 * file that still has a narrower type (a merge with no updates, which widens the values), and no base file of the
 * table keeps the old type. A Merge-on-Read file slice with log files cannot be rewritten that way (its logs belong
 * to its base file), so widening is refused there until the table is compacted.
 */
final class WideningRewrite {
  private WideningRewrite() {
  }

  /** {@code plan} plus a rewrite of every untouched file group whose base file has a narrower column type. */
  static List<FileGroupWrite> complete(List<FileGroupWrite> plan, FileSystemView view, WriteSetup setup,
      Optional<Schema> previous) {
    if (previous.isEmpty() || !SchemaEvolution.widens(previous.get(), setup.userSchema())) {
      return plan;
    }
    Set<FileGroupId> planned = new HashSet<>();
    plan.forEach(w -> planned.add(w.id()));
    List<FileGroupWrite> out = new ArrayList<>(plan);
    for (String partition : view.partitions()) {
      for (FileSlice slice : view.latestSlices(partition)) {
        if (slice.baseFile().isEmpty() || planned.contains(slice.id())) {
          continue;
        }
        BaseFile base = slice.baseFile().get();
        if (!narrower(setup, base)) {
          continue;
        }
        if (!slice.logFiles().isEmpty()) {
          throw Errors.badInput("the records' schema", null, "it widens a column type, and file group " + slice.fileId()
              + " in partition '" + partition + "' has log files over a base file of the old type, which Hudi's readers "
              + "could not read with the new type", "the table schema's types until the table is compacted");
        }
        out.add(new FileGroupWrite.Merge(slice.id(), base, 0, 0));
      }
    }
    for (FileGroupWrite w : plan) {
      if (w instanceof FileGroupWrite.Append a && a.slice().baseFile().isPresent() && narrower(setup, a.slice().baseFile().get())) {
        throw Errors.badInput("the records' schema", null, "it widens a column type, and file group " + a.id().fileId()
            + " takes log appends over a base file of the old type", "the table schema's types until the table is compacted");
      }
    }
    return out;
  }

  private static boolean narrower(WriteSetup setup, BaseFile base) {
    try (BaseFileReader r = BaseFileReader.open(setup.storage(), base.path(), base.size())) {
      return SchemaEvolution.widens(MetaFields.withoutMetaFields(r.footer().schema()), setup.userSchema());
    }
  }
}
