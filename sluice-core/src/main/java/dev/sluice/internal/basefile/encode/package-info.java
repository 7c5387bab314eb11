/**
 * Sluice's own Parquet column writers, used by {@code basefile.BaseFileWriter} in place of Parquet's {@code
 * ColumnWriteStoreV1}: {@code ColumnChunkStore} holds one row group's columns, {@code ColumnChunkEncoder} writes a
 * chunk as v1 data pages with statistics, and the {@code PageValues} kinds ({@code NumberValues}, {@code
 * BinaryValues}, {@code BooleanValues}) encode values plain or with a dictionary until {@code DictionaryRule} falls
 * back, as Parquet's writer does. The bytes are Parquet's own; only the per-value overhead is gone. Write path
 * only.
 */
package dev.sluice.internal.basefile.encode;
