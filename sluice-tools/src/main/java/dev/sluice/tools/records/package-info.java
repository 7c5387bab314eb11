/**
 * Records in and out of the command line, on the public API only: input parsing of CSV, JSON Lines, Avro and Parquet
 * files into records of a table schema ({@link dev.sluice.tools.records.RecordSources}), output printing as JSON Lines,
 * CSV or a text table ({@link dev.sluice.tools.records.RecordFormatter}), and the column DDL of {@code sluice create}
 * ({@link dev.sluice.tools.records.SchemaDdl}).
 */
package dev.sluice.tools.records;
