/**
 * Hudi 1.x's archived timeline (timeline layout 2, table versions 8 and 9): an LSM tree of Parquet files under
 * {@code .hoodie/timeline/history}, one row per archived instant ({@code LsmInstant}), the valid files of each
 * snapshot listed in {@code manifest_<N>} ({@code LsmManifest}) and the latest snapshot named by {@code _version_}.
 * {@code LsmTimeline} reads it; {@code LsmTimelineWriter} appends a layer-0 file per archival and merges full layers
 * into the next one; {@code LsmArchival} moves chosen instants of the active timeline into it as Hudi 1.x's archiver
 * does.
 */
package dev.sluice.internal.timeline.lsm;
