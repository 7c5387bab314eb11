package dev.sluice.spark;

import dev.sluice.api.WriteContext;
import dev.sluice.api.WriteUnits;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link WriteUnits} of a write, opened once per JVM (driver or executor) and write: Spark calls the combine
 * function once per pair of records, and opening reads {@code hoodie.properties}.
 */
final class Units {
  private static final int KEEP = 16;
  private static final Map<WriteContext, WriteUnits> OPEN = new ConcurrentHashMap<>();

  private Units() {
  }

  static WriteUnits of(WriteContext ctx) {
    WriteUnits u = OPEN.get(ctx);
    if (u != null) {
      return u;
    }
    if (OPEN.size() >= KEEP) {
      // an executor that lives through many writes keeps only recent ones
      OPEN.clear();
    }
    return OPEN.computeIfAbsent(ctx, WriteUnits::open);
  }
}
