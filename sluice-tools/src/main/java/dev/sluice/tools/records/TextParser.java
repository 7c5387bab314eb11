package dev.sluice.tools.records;

/** Parses the text form of one scalar Avro value (a CSV cell, a JSON string) to its generic representation. */
@FunctionalInterface
interface TextParser {
  /**
   * Parses {@code text}.
   *
   * @throws FieldError when the text is not a valid value
   */
  Object parse(String text);
}
