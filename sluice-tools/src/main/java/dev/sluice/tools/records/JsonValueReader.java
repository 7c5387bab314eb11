package dev.sluice.tools.records;

import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;

/** Reads one value of a fixed schema from a streaming JSON parser. */
interface JsonValueReader {
  /**
   * Reads the value that starts at the parser's current token, leaving the parser on the value's last token.
   *
   * @throws FieldError when the value does not fit the schema
   * @throws IOException when the JSON is malformed or cannot be read
   */
  Object read(JsonParser p) throws IOException;

  /** True when a value starting with {@code token} could be of this reader's schema (used to pick union branches). */
  boolean accepts(com.fasterxml.jackson.core.JsonToken token);
}
