package dev.sluice.internal.read;

import dev.sluice.api.ScanOptions;
import org.apache.avro.Schema;

/** How a scan is planned: the full plan when it is read, only the rows' schema when that is all that is asked. */
public interface ScanPlanner {
  /** Plans {@code options}: timeline, file listing, pruning, the slices to read. */
  ScanPlan plan(ScanOptions options);

  /**
   * The schema of the rows {@link #plan} would return, without listing files: a query that asks for the schema
   * before it reads (to print a header, to declare columns) does not plan twice. Options the plan refuses are
   * refused when it is made.
   */
  Schema outputSchema(ScanOptions options);
}
