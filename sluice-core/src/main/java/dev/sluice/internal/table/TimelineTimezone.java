package dev.sluice.internal.table;

import java.time.ZoneId;
import java.time.ZoneOffset;

/** The clock that instant times are written in ({@code hoodie.table.timeline.timezone}). */
public enum TimelineTimezone {
  /** The JVM's default time zone (Hudi's default). */
  LOCAL,
  /** UTC. */
  UTC;

  /** The zone instant times are formatted in. */
  public ZoneId zoneId() {
    return this == UTC ? ZoneOffset.UTC : ZoneId.systemDefault();
  }
}
