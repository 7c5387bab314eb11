package dev.sluice.cli;

import dev.sluice.api.CommitResult;
import dev.sluice.api.FileWriteResult;
import dev.sluice.api.WriteOperation;
import dev.sluice.api.WriteOutcome;
import java.util.ArrayList;
import java.util.List;

/**
 * What a write ignored and why, as lines for the user: from the counts of the write's {@link WriteOutcome}, never
 * re-derived here.
 */
final class OutcomeText {
  /** The message of a write whose input held no records. */
  static final String NOTHING_COMMITTED = "no records in input; nothing committed";

  private OutcomeText() {
  }

  /** The outcome lines of {@code r} (none when everything received was applied). */
  static List<String> lines(CommitResult r) {
    WriteOutcome o = r.outcome();
    String field = o.orderingField().map(f -> "ordering field " + f).orElse("no ordering field");
    List<String> out = new ArrayList<>();
    if (o.olderThanStored() > 0) {
      out.add(o.olderThanStored() + " ignored: older than the stored version (" + field + ")");
    }
    if (o.combined() > 0) {
      out.add(o.combined() + " combined: " + plural(o.combined(), "another version", "other versions")
          + " of a key in the same input, collapsed into one version per key before writing ("
          + o.orderingField().map(f -> "the larger " + f + " wins").orElse("the later wins") + ")");
    }
    if (o.deletesNotFound() > 0) {
      out.add(o.deletesNotFound() + " " + plural(o.deletesNotFound(), "key", "keys") + " not found: nothing to delete");
    }
    long logged = r.files().stream().filter(f -> f.logAppend().isPresent()).mapToLong(FileWriteResult::numUpdates).sum();
    if (logged > 0 && o.orderingField().isPresent() && r.operation() != WriteOperation.DELETE) {
      out.add(logged + " " + plural(logged, "update", "updates") + " appended to log files: weighed against the stored "
          + "version (" + field + ") when read or compacted, so older ones are not counted as ignored here");
    }
    return out;
  }

  /** The warnings of {@code r}, for the error stream. */
  static List<String> warnings(CommitResult r) {
    List<String> out = new ArrayList<>();
    long without = r.outcome().deletesWithoutPartition();
    if (without > 0) {
      out.add("warning: " + without + " delete " + plural(without, "row has", "rows have") + " no partition path "
          + "value; with a non-global index a key is looked up only in its own partition, so "
          + plural(without, "it was", "they were") + " looked up in the default partition only. Give each row's "
          + "partition path beside its record key (or use a global index, hoodie.index.type=GLOBAL_BLOOM).");
    }
    return out;
  }

  private static String plural(long n, String one, String many) {
    return n == 1 ? one : many;
  }
}
