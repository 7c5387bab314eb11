/**
 * The benchmark steps on Apache Spark: {@code SparkBenchEngine} drives a table format through Spark's DataFrame
 * reader and writer with Hudi's datasource option names (Sluice's {@code format("sluice")} or Hudi's own
 * {@code format("hudi")}), so both Spark engines run the same calls on the same Datasets in {@code local} mode;
 * each side adds only how it creates a table and runs a compaction.
 */
package dev.sluice.bench.spark;
