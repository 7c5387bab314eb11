/**
 * Hudi's metadata table ({@code .hoodie/metadata}): a Merge-on-Read table of HFiles beside the data table that lists
 * its partitions and files ({@code files}) and maps record keys to file groups ({@code record_index}). This package
 * holds what every part of it shares: the record schema and codec ({@link dev.sluice.internal.mdt.MetadataRecords}),
 * the partitions and their file groups ({@link dev.sluice.internal.mdt.MetadataPartition}) and the values stored
 * ({@link dev.sluice.internal.mdt.FilesRecord}, {@link dev.sluice.internal.mdt.RecordLocation}).
 * Facts: {@code ../shared/hudi-metadata-table.md} sections 1.3 to 1.9.
 */
package dev.sluice.internal.mdt;
