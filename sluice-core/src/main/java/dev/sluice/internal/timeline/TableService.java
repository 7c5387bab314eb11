package dev.sluice.internal.timeline;

/**
 * The table services whose support differs between timeline layouts ({@link TimelineLayout#runs}): on version 6
 * Sluice runs them all; on versions 8 and 9 it runs those Hudi 1.x's format is implemented for, and refuses the rest
 * rather than write instants a Hudi 1.x reader would misread.
 */
public enum TableService {
  /** Merge-on-Read compaction: scheduling a plan, running it, inline and background triggers. */
  COMPACTION,
  /** The cleaner: planning, running and finishing cleans, automatic after writes. */
  CLEAN,
  /** Archival of old instants, automatic after writes. */
  ARCHIVAL
}
