package dev.sluice.internal.util;

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
  private static final Map<String, Schema> LENIENT_BY_JSON = new ConcurrentHashMap<>();

  private ParsedSchemas() {
  }

  /** The schema of {@code json}; throws {@link SchemaParseException} if it is not a schema. */
  public static Schema parse(String json) {
    return cached(BY_JSON, json, true);
  }

  /**
   * The schema of {@code json} without checking that field defaults match their types. Base files from other writers
   * carry schemas with such defaults, and a reader must still open them; kept apart from {@link #parse} so a strict
   * caller never receives a schema that skipped the check.
   */
  public static Schema parseLenient(String json) {
    return cached(LENIENT_BY_JSON, json, false);
  }

  private static Schema cached(Map<String, Schema> cache, String json, boolean validateDefaults) {
    Schema s = cache.get(json);
    if (s == null) {
      s = new Schema.Parser().setValidateDefaults(validateDefaults).parse(json);
      if (cache.size() >= MAX_ENTRIES) {
        cache.clear();
      }
      cache.put(json, s);
    }
    return s;
  }
}
