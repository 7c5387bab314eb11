package dev.sluice.api;

import java.util.Optional;

/**
 * An iterator of input records that knows where its last record came from (e.g. {@code data.jsonl:17}), so errors
 * found later, while the write prepares the record, can name the file and line.
 */
public interface Positioned {
  /** Where the record last returned by {@code next()} was read, if known. */
  Optional<String> position();
}
