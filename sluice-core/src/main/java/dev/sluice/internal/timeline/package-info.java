/**
 * The timeline under {@code .hoodie/}: {@code Instant}s (time, {@code Action}, {@code State}), {@code Timeline} (an
 * immutable snapshot of the active timeline) and {@code TimelineStore}, which loads it and moves instants through
 * requested, inflight and completed, each state file created atomically. A completed write's content is {@code
 * CommitMetadata} with one {@code WriteStat} per file, in Hudi's JSON. Every write publishes through it; every read
 * starts from a loaded {@code Timeline}.
 */
package dev.sluice.internal.timeline;
