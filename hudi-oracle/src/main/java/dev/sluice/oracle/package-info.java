/**
 * The oracle: a command-line runner of Apache Hudi 0.15.0's own jars ({@code Oracle}), started in a child JVM by
 * the interop tests and benchmarks. Its commands create, write, compact and read tables with Hudi's Java client and
 * readers and print what Hudi sees (timeline, file-system view, bloom filters, Avro metadata), so tests compare
 * Sluice with Hudi on the same files; {@code GoldenTables} writes the golden tables of Sluice's reader tests and
 * {@code BenchWorker} runs the Hudi side of a benchmark step.
 */
package dev.sluice.oracle;
