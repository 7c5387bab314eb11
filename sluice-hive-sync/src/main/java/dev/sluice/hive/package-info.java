/**
 * Hive Metastore sync without Spark or Hadoop: {@code HiveSync} creates or updates the metastore's definition of a
 * table (one table for Copy-on-Write; {@code _ro}, {@code _rt} and the plain name for Merge-on-Read) and its
 * partitions from the completed commits since {@code last_commit_time_sync}, through the metastore's Thrift API
 * ({@code Metastore}). The facts (input formats, serde and table properties, type mapping, which partitions are added
 * and dropped) follow Hudi 0.15's {@code HiveSyncTool} in {@code hms} mode; the code is Sluice's own.
 * {@code HiveCatalogSync} registers it as a {@link dev.sluice.api.CatalogSync}, so writes run it after each commit
 * when {@code hoodie.datasource.meta.sync.enable} is true and {@code sluice sync} runs it on demand.
 */
package dev.sluice.hive;
