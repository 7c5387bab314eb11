/**
 * A table's identity on storage: {@code TableConfig} is {@code hoodie.properties} with Hudi's defaults, read and
 * written with its checksum and backup by {@code TableConfigStore}; {@code TableLayout} says where things live
 * under the base path and creates a table; {@code TableType}, {@code TableSchema} (the schema of the latest
 * commit), {@code PartitionMetadata} (the partition marker file) and {@code MetadataTable} (removing Hudi's
 * metadata table, which Sluice does not maintain). Both paths start by loading these. {@code ConfinedStorage} is
 * the storage every table handle works through: it refuses any change outside the table's base path.
 */
package dev.sluice.internal.table;
