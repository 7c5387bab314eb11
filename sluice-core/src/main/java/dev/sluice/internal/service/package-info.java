/**
 * Table services: when and in which order the actions that keep a table healthy run, on top of the packages that
 * carry each one out ({@code clean}, {@code archive}, {@code compact}). {@link dev.sluice.internal.service.TableServices}
 * runs clean, archival and compaction after a commit, in Hudi 0.15's order; {@link dev.sluice.internal.service.Compactor}
 * runs pending compactions on a background thread. Nothing below this package depends on it, so an action package
 * never reaches back up to the scheduling of another.
 */
package dev.sluice.internal.service;
