/**
 * The Hudi 1.x oracle: a command-line runner of Apache Hudi 1.1.1's own jars ({@code Oracle}), started in a child
 * JVM by the interop tests like the Hudi 0.15.0 oracle (module hudi-oracle), with the same command names and output
 * formats, so a test asks either release the same question. It reads with Hudi 1.x's file-group reader, the reader
 * Hudi 1.x's engines (Spark, Flink, Trino, the Java client) share.
 */
package dev.sluice.oracle;
