/**
 * Keeping Hudi's metadata table ({@code .hoodie/metadata}) correct as the data table changes (Hudi 0.15, table
 * version 6): {@link dev.sluice.internal.mdt.write.MetadataTableWriter} bootstraps the {@code files} partition from a
 * listing and mirrors every data-table action as a metadata-table deltacommit at the same instant, completed before
 * the data table's instant (the actions call it from {@code InstantAction.beforePublish}, under the table lock);
 * {@link dev.sluice.internal.mdt.write.FilesChange} is what an action contributes. Partitions Sluice does not keep are
 * dropped. Facts: {@code ../shared/hudi-metadata-table.md} sections 1.2, 1.4, 1.10 and 2.
 */
package dev.sluice.internal.mdt.write;
