package dev.sluice.internal.log;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/** Parsed writer schemas by their JSON text: blocks of one writer repeat the same schema in every header. */
final class SchemaCache {
  private static final int MAX_ENTRIES = 256;
  private final Map<String, Schema> byJson = new ConcurrentHashMap<>();

  /** The schema of {@code json}; throws {@link SchemaParseException} if it is not a schema. */
  Schema parse(String json) {
    Schema s = byJson.get(json);
    if (s == null) {
      s = new Schema.Parser().parse(json);
      if (byJson.size() < MAX_ENTRIES) {
        byJson.put(json, s);
      }
    }
    return s;
  }
}
