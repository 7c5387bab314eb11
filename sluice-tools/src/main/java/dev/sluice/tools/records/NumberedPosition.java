package dev.sluice.tools.records;

import dev.sluice.api.Positioned;
import java.util.Optional;

/**
 * A source whose position is a fixed text and a number ({@code data.jsonl:17}, {@code data.avro: record 5}), so a
 * reader on another thread can note where each record came from without building a string per record
 * ({@link InputAhead}).
 */
interface NumberedPosition extends Positioned {
  /** The text before the number; the same for every record of the source. */
  String positionPrefix();

  /** The number of the record last returned (its line, or its count), 0 or less before the first. */
  long positionNumber();

  @Override
  default Optional<String> position() {
    long n = positionNumber();
    return n <= 0 ? Optional.empty() : Optional.of(positionPrefix() + n);
  }
}
