package dev.sluice.tools.records;

import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.api.SluiceException;

/**
 * How input files are read.
 *
 * @param ignoreUnknownFields when true, input fields (JSON members, CSV columns, Avro/Parquet fields) that are
 *     not in the table schema are skipped; when false (the default) they are an error, which catches typos
 * @param maxValueLength the longest text value, in characters, a JSON or CSV input may hold
 *     ({@code sluice.input.max.value.length}); a longer one is bad input naming its line and field, before it
 *     can exhaust memory
 * @param maxNestingDepth the deepest nesting of JSON arrays and objects ({@code sluice.input.max.nesting.depth})
 */
public record InputOptions(boolean ignoreUnknownFields, int maxValueLength, int maxNestingDepth) {
  private static final InputOptions DEFAULTS = new InputOptions(false);

  /** Unknown fields as given, the limits at their defaults. */
  public InputOptions(boolean ignoreUnknownFields) {
    this(ignoreUnknownFields, ConfigKeys.INPUT_MAX_VALUE_LENGTH.defaultValue(),
        ConfigKeys.INPUT_MAX_NESTING_DEPTH.defaultValue());
  }

  /** Checks the limits. */
  public InputOptions {
    if (maxValueLength < 1) {
      throw SluiceException.badConfig(ConfigKeys.INPUT_MAX_VALUE_LENGTH.name(), Integer.toString(maxValueLength),
          "a positive number of characters");
    }
    if (maxNestingDepth < 1) {
      throw SluiceException.badConfig(ConfigKeys.INPUT_MAX_NESTING_DEPTH.name(), Integer.toString(maxNestingDepth),
          "a positive number of levels");
    }
  }

  /** The defaults: unknown fields are an error. */
  public static InputOptions defaults() {
    return DEFAULTS;
  }

  /** The options with the limits {@code config} sets (the rest at their defaults). */
  public static InputOptions of(Config config, boolean ignoreUnknownFields) {
    return new InputOptions(ignoreUnknownFields, config.get(ConfigKeys.INPUT_MAX_VALUE_LENGTH),
        config.get(ConfigKeys.INPUT_MAX_NESTING_DEPTH));
  }

  /** A copy with {@link #ignoreUnknownFields()} set. */
  public InputOptions withIgnoreUnknownFields(boolean ignore) {
    return new InputOptions(ignore, maxValueLength, maxNestingDepth);
  }
}
