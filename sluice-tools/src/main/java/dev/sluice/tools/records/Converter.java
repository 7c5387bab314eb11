package dev.sluice.tools.records;

/** Converts one value of a file's schema to the table schema's representation, validating it. */
@FunctionalInterface
interface Converter {
  /**
   * Converts {@code value}.
   *
   * @throws FieldError when the value does not fit the table schema
   */
  Object convert(Object value);
}
