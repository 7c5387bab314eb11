/**
 * Reading Hudi's metadata table (table versions 6, 8 and 9): {@link dev.sluice.internal.mdt.read.MetadataTableReader}
 * takes the latest file slice of each file group of a metadata partition, keeps only the log blocks a Hudi reader
 * trusts ({@link dev.sluice.internal.mdt.read.TrustRules}: Hudi 0.15's rules for version 6, Hudi 1.x's for 8 and 9;
 * {@link dev.sluice.internal.mdt.read.ValidInstants}, rollback command blocks), merges the records oldest to newest
 * and answers partition lists, file lists and batched key lookups with index seeks.
 * {@link dev.sluice.internal.mdt.read.MetadataTables} decides whether a data table's metadata table may be trusted for
 * its listings; {@link dev.sluice.internal.mdt.read.MetadataListing} feeds a {@code FileSystemView} from it, so that a
 * query lists no data partition. Facts: {@code ../shared/hudi-metadata-table.md} sections 2.3, 3 and 5,
 * {@code ../shared/hudi-1x-format.md} section 7.1.
 */
package dev.sluice.internal.mdt.read;
