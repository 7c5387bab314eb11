package dev.sluice.crash;

import dev.sluice.api.Table;
import dev.sluice.storage.CrashingStorage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;

/**
 * One operation the crash tests interrupt: how to build the table it starts from (in the test JVM), the operation
 * itself (run in the test JVM to trace its kill points and learn the state after it, and in the child JVM that is
 * killed), and what is allowed in between.
 *
 * @param name unique name; the child finds the scenario by it
 * @param options table and write options (Hudi keys)
 * @param setup builds the starting table and returns the snapshots after each of its commits
 * @param op the operation under test
 * @param intermediateStatesVisible true if readers may see a state between before and after (restore rolls back one
 *     commit at a time); the allowed states are then the setup's snapshots
 * @param recovery what an operator does after the crash before the next write (e.g. re-run an interrupted restore)
 * @param finishedByRecovery true if the recovery (or the next write) finishes an interrupted operation, whose result
 *     is then expected: a rollback or restore left pending is completed, not undone
 * @param appendingStorage true to run on storage that appends to existing files (as HDFS does)
 * @param finalCheck what must hold of the table after recovery and the follow-up write, beyond the common checks
 */
public record CrashScenario(String name, Map<String, String> options, Setup setup, Op op, boolean intermediateStatesVisible,
    Op recovery, boolean finishedByRecovery, boolean appendingStorage, FinalCheck finalCheck) {

  /** A scenario with no checks of its own. */
  public CrashScenario(String name, Map<String, String> options, Setup setup, Op op, boolean intermediateStatesVisible,
      Op recovery, boolean finishedByRecovery, boolean appendingStorage) {
    this(name, options, setup, op, intermediateStatesVisible, recovery, finishedByRecovery, appendingStorage,
        t -> List.of());
  }

  /** The same scenario with {@code check} run after recovery and the follow-up write. */
  public CrashScenario withFinalCheck(FinalCheck check) {
    return new CrashScenario(name, options, setup, op, intermediateStatesVisible, recovery, finishedByRecovery,
        appendingStorage, check);
  }

  /** The table at {@code dir} on this scenario's storage. */
  public dev.sluice.api.Table open(java.nio.file.Path dir) {
    dev.sluice.storage.Storage s = new dev.sluice.storage.LocalStorage();
    if (appendingStorage) {
      s = new dev.sluice.storage.AppendingStorage(s);
    }
    return dev.sluice.api.Tables.open(s, dir.toString(), dev.sluice.api.Config.of(options));
  }

  /** The same scenario under another name, on storage that appends. */
  public CrashScenario appending(String newName) {
    return new CrashScenario(newName, options, setup, op, intermediateStatesVisible, recovery, finishedByRecovery, true,
        finalCheck);
  }

  /** Builds the starting table. */
  @FunctionalInterface
  public interface Setup {
    /** Creates the table at {@code dir} (crashing writes through {@code crashing} if the scenario needs failed ones). */
    List<Map<String, GenericRecord>> build(Path dir, CrashingStorage crashing);
  }

  /** A scenario's own check of the recovered table. */
  @FunctionalInterface
  public interface FinalCheck {
    /** What is wrong with {@code table}, one line each (empty if all is well). */
    List<String> problems(Table table);
  }

  /** An operation on an opened table. */
  @FunctionalInterface
  public interface Op {
    /** Runs it. */
    void run(Table table);
  }
}
