/**
 * Archival: moves old completed instants from {@code .hoodie/} to the archived timeline
 * ({@code .hoodie/archived/.commits_.archive.*}, Hudi log files of {@code HoodieArchivedMetaEntry} records), and
 * reads it back. Entry points: {@link dev.sluice.internal.archive.Archiver} and
 * {@link dev.sluice.internal.archive.ArchiveLog}. Running archival after each commit is
 * {@link dev.sluice.internal.service.TableServices}' job.
 */
package dev.sluice.internal.archive;
