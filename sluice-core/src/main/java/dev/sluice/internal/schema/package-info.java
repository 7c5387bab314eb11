/**
 * The writer schema of a write: {@code Peeked} looks at the input's first record, whose schema is the writer
 * schema, and {@code SchemaEvolution} decides whether the table accepts it as Hudi 0.15 does (compatible evolution
 * only: new nullable fields, widened types; no dropped field). Checked at the start of the write path, before
 * anything is written. {@code Projection} cuts a record schema down to the columns a reader asks a file or a table
 * for (the scan, the merged slice reader, incremental queries).
 */
package dev.sluice.internal.schema;
