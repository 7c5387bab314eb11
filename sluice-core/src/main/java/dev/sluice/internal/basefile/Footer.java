package dev.sluice.internal.basefile;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * What a base file's footer says.
 *
 * @param schema the file's Avro schema (from {@code parquet.avro.schema}, else converted from the Parquet schema)
 * @param rowCount rows in the file
 * @param minRecordKey {@code hoodie_min_record_key}, if present
 * @param maxRecordKey {@code hoodie_max_record_key}, if present
 * @param keyValueMetadata every key-value pair of the footer
 */
public record Footer(Schema schema, long rowCount, Optional<String> minRecordKey, Optional<String> maxRecordKey,
    Map<String, String> keyValueMetadata) {
  /** Copies the metadata map (keeping its order). */
  public Footer {
    keyValueMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(keyValueMetadata));
  }
}
