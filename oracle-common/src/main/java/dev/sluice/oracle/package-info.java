/**
 * The part of the Hudi oracles that is the same for every Hudi release they run: {@code Args} (the command line),
 * {@code AvroJson} (a schema line, then one record per line in Avro's JSON encoding) and {@code NioLocalFileSystem}.
 * It sits in the oracles' package so they use it as their own; each oracle module has the rest of that package.
 */
package dev.sluice.oracle;
