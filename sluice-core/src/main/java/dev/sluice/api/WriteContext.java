package dev.sluice.api;

import java.io.Serializable;
import java.util.Map;

/**
 * What a task of a cluster engine needs to run a {@link DistributedWrite}'s units of work ({@link WriteUnits#open}):
 * the table, its options (storage settings included), the instant, the operation and the writer schema.
 *
 * @param basePath the table's base path
 * @param options the table's options as the driver opened it with
 * @param instantTime the write's instant
 * @param operation the write operation
 * @param schema the writer schema (the table schema without meta fields) as JSON
 * @param globalIndex true if keys are unique across partitions (duplicates combine by key alone)
 */
public record WriteContext(String basePath, Map<String, String> options, String instantTime, WriteOperation operation,
    String schema, boolean globalIndex) implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Copies the options. */
  public WriteContext {
    options = Map.copyOf(options);
  }
}
