/**
 * The file-system view: which data files of a table are visible at a timeline snapshot. {@code FileSystemView}
 * lists partitions and groups base and log files ({@code FileNames} parses their names) into {@code FileGroup}s of
 * {@code FileSlice}s, keeping only the slices whose base instant is a completed write, a pending compaction or
 * older than the active timeline (archived, hence committed). The write path asks it for each file group's latest
 * slice (tagging, planning, appends); the read path for the slices a query reads as of its instant.
 */
package dev.sluice.internal.fsview;
