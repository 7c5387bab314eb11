package dev.sluice.api;

import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * How far one long step of an operation has got, as a {@link ProgressListener} receives it. Reports of one step come
 * in order with {@link #done()} never decreasing; the last one of a step has {@link #finished()} set (its
 * {@code done} equals the {@code total} when the step ran to its end: a scan cut short by a limit or closed early
 * finishes below it).
 *
 * @param step the step
 * @param done units done so far
 * @param total units the step will do, when known before it starts (empty for a stream of unknown length: the input)
 * @param finished whether this is the step's last report
 * @param records for a step counted in larger units ({@link Step#COMPACTION} in file groups, {@link Step#SCAN} in
 *     file slices), the records it has handled so far inside them (records merged into new base files, rows
 *     returned), also never decreasing: a file group of a million records moves the count while it is written. 0 for
 *     the steps counted in records and the others.
 */
public record Progress(Step step, long done, OptionalLong total, boolean finished, long records) {
  /** Rejects nulls and negative counts. */
  public Progress {
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(total, "total");
    if (done < 0 || records < 0 || total.isPresent() && total.getAsLong() < 0) {
      throw new IllegalArgumentException("negative progress count: " + done + " of " + total + ", records " + records);
    }
  }

  /** A report without a count of records inside the step's units. */
  public Progress(Step step, long done, OptionalLong total, boolean finished) {
    this(step, done, total, finished, 0);
  }

  /** What {@link #done()} counts (the step's unit), e.g. {@code records}. */
  public String unit() {
    return step.unit();
  }

  /** The long steps reported, each with the unit it counts in. */
  public enum Step {
    /** A write reading and checking its input records (the total is not known: the input is a stream). */
    READ_INPUT("reading input", "records"),
    /** A write looking up the keys of its records in the index (bulk insert does not tag). */
    TAG("tagging", "records"),
    /**
     * A write writing its planned file groups (new base files, rewrites and log appends), counted in the records
     * planned into them as the file groups' writers take them.
     */
    WRITE_FILE_GROUPS("writing file groups", "records"),
    /**
     * A compaction merging the file slices of its plan into new base files, counted in file groups done, with the
     * records merged so far in {@link Progress#records()}.
     */
    COMPACTION("compaction", "file groups"),
    /** A clean deleting the files of its plan. */
    CLEAN("clean", "files"),
    /**
     * A query reading the file slices of its plan, counted in file slices read to their end, with the rows returned
     * so far in {@link Progress#records()}.
     */
    SCAN("query", "file slices");

    private final String label;
    private final String unit;

    Step(String label, String unit) {
      this.label = label;
      this.unit = unit;
    }

    /** The step as a user reads it, e.g. {@code writing file groups}. */
    public String label() {
      return label;
    }

    /** The unit its counts are in, e.g. {@code records}. */
    public String unit() {
      return unit;
    }

    /** The step's name in command-line output and JSON: its constant in lower case with dashes. */
    public String key() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }
}
