package dev.sluice.internal.repair;

import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.Storage;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** Runs a repair: plans it, and unless it is a dry run makes every fix in order, keeping what it changes. */
public final class Repairer {
  private Repairer() {
  }

  /**
   * What a repair found and did.
   *
   * @param findings everything found, in the order fixed
   * @param applied true if the fixes were made (false: a dry run, nothing changed)
   * @param backupFolder where the files the repair changed were kept, if it changed any
   */
  public record Outcome(List<Finding> findings, boolean applied, Optional<String> backupFolder) {
    /** Copies the list. */
    public Outcome {
      findings = List.copyOf(findings);
    }
  }

  /**
   * Plans the repair of the table at {@code basePath} and, if {@code apply}, makes the fixes. A dry run only reads.
   * Running it again after an interrupted repair finishes the job: each fix re-checks the table.
   *
   * @param writerGone whether a pending write's writer is gone (its write may be rolled back)
   * @param rollback rolls back a pending write
   */
  public static Outcome run(Storage storage, String basePath, Predicate<String> writerGone, Consumer<String> rollback,
      boolean apply) {
    List<Finding> findings = new RepairPlanner(storage, basePath, writerGone, rollback, System.currentTimeMillis()).plan();
    if (!apply || findings.stream().noneMatch(f -> f.step().isPresent())) {
      return new Outcome(findings, apply, Optional.empty());
    }
    RepairBackup backup = new RepairBackup(storage, basePath, InstantTimes.newInstantTime());
    for (Finding f : findings) {
      if (f.step().isPresent()) {
        f.step().get().apply(backup);
        KillPoints.reach("repair.fixed");
      }
    }
    return new Outcome(findings, true, Optional.of(backup.folder()));
  }
}
