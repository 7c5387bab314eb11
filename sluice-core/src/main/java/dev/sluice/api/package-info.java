/**
 * The public API that applications program against: {@code Tables} creates or opens a table at a location, {@code
 * TableSpec} describes a new one, {@code Table} writes Avro records (insert, upsert, delete, bulk insert) and
 * starts scans, and {@code Lookup} answers point lookups by record key. A write enters the engine here and goes on
 * to {@code internal.write} (prepare, tag, plan, write handles) under {@code internal.txn}'s instant lifecycle; a
 * read starts here as a {@code Scan} planned by {@code internal.read}. Issue 17 moves the types users need (scan
 * options, expressions, {@code Config}, {@code CommitResult}, {@code SluiceException}) into this package.
 */
package dev.sluice.api;
