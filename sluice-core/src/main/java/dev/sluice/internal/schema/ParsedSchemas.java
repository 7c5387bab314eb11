package dev.sluice.internal.schema;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * Avro schemas parsed from their JSON text, shared by every reader in the process. Every log block header and every
 * metadata-table HFile repeats its writer's schema as text: parsing it again for each one cost a tenth of a
 * metadata-table mirror's CPU, and a fresh {@link Schema} per block also defeated Avro's per-schema resolver caches.
 * The schemas returned are shared: callers must not add properties to them.
 */
public final class ParsedSchemas {
  /** Bounded: a process reading many tables of many schemas starts over rather than growing without limit. */
  private static final int MAX_ENTRIES = 512;
  private static final Map<String, Schema> BY_JSON = new ConcurrentHashMap<>();

  private ParsedSchemas() {
  }

  /** The schema of {@code json}; throws {@link SchemaParseException} if it is not a schema. */
  public static Schema parse(String json) {
    Schema s = BY_JSON.get(json);
    if (s == null) {
      s = new Schema.Parser().parse(json);
      if (BY_JSON.size() >= MAX_ENTRIES) {
        BY_JSON.clear();
      }
      BY_JSON.put(json, s);
    }
    return s;
  }
}
