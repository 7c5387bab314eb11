package dev.sluice.api;

/**
 * The write token in a data file's name ({@code <fileId>_<token>_<instant>.parquet}): which task attempt wrote the
 * file, in Hudi's {@code partition-stage-attempt} form. A single machine writes with {@link #of(int)} (the task's
 * index, stage and attempt 0); an engine that may run a task twice (a retry, a speculative copy) gives each attempt
 * its own token, so that two attempts never race for one file name and the files of the attempt that lost can be
 * told apart (and are deleted when the instant is published: they have markers but no write stat).
 *
 * @param partition the task's index among the write's tasks (also the sequence-number prefix of the rows it writes)
 * @param stage the stage that ran it (0 on a single machine)
 * @param attempt the attempt (0 on a single machine; a cluster engine's unique attempt id)
 */
public record WriteToken(int partition, int stage, long attempt) implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** Rejects negative parts (they would make a name Hudi cannot parse). */
  public WriteToken {
    if (partition < 0 || stage < 0 || attempt < 0) {
      throw SluiceException.badInput("write token", "partition-stage-attempt",
          "is " + partition + "-" + stage + "-" + attempt, "three non-negative numbers");
    }
  }

  /** The token of task {@code taskIndex} on a single machine: {@code <taskIndex>-0-0}. */
  public static WriteToken of(int taskIndex) {
    return new WriteToken(taskIndex, 0, 0);
  }

  /** True for a single machine's token (stage and attempt 0). */
  public boolean local() {
    return stage == 0 && attempt == 0;
  }

  /** The token as it appears in file names. */
  public String text() {
    return partition + "-" + stage + "-" + attempt;
  }
}
