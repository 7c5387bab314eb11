package dev.sluice.internal.log;

import dev.sluice.internal.schema.ParsedSchemas;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/** Parsed writer schemas by their JSON text: blocks of one writer repeat the same schema in every header. */
final class SchemaCache {
  /** The schema of {@code json} (shared process-wide); throws {@link SchemaParseException} if it is not a schema. */
  Schema parse(String json) {
    return ParsedSchemas.parse(json);
  }
}
