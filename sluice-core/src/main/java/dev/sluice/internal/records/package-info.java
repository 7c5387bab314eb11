/**
 * Application code for the command line, not used by the engine: input files (JSON Lines, CSV, Avro, Parquet) read
 * into records of the table schema with validation and schema resolution ({@code RecordSources}, {@code
 * RecordResolver}), query output written as JSON Lines, CSV or a text table ({@code RecordFormatter}), and the
 * column-list language of {@code sluice create --columns} ({@code SchemaDdl}). Issue 17 moves it to a tools module.
 */
package dev.sluice.internal.records;
