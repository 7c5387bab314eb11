package dev.sluice.tools.records;

/**
 * How input files are read.
 *
 * @param ignoreUnknownFields when true, input fields (JSON members, CSV columns, Avro/Parquet fields) that are
 *     not in the table schema are skipped; when false (the default) they are an error, which catches typos
 */
public record InputOptions(boolean ignoreUnknownFields) {
  private static final InputOptions DEFAULTS = new InputOptions(false);

  /** The defaults: unknown fields are an error. */
  public static InputOptions defaults() {
    return DEFAULTS;
  }

  /** A copy with {@link #ignoreUnknownFields()} set. */
  public InputOptions withIgnoreUnknownFields(boolean ignore) {
    return new InputOptions(ignore);
  }
}
