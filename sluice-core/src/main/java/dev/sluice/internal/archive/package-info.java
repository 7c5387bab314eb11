/**
 * Archival: moves old completed instants from {@code .hoodie/} to the archived timeline
 * ({@code .hoodie/archived/.commits_.archive.*}, Hudi log files of {@code HoodieArchivedMetaEntry} records), and
 * reads it back. Entry points: {@link dev.sluice.internal.archive.Archiver}, {@link dev.sluice.internal.archive.ArchiveLog}, and
 * {@link dev.sluice.internal.archive.TableServices}, which runs cleaning and archival after each commit.
 */
package dev.sluice.internal.archive;
