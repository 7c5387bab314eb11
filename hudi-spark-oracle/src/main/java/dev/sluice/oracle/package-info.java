/**
 * The Spark oracle: {@code SparkOracle} runs Apache Spark in local mode with one of Hudi's Spark bundles, started in
 * a child JVM by the interop tests, and reads or writes a Hudi table through Spark's DataFrame API the way Hudi's
 * Spark users do. It shares argument parsing with the other oracles ({@code oracle-common}).
 */
package dev.sluice.oracle;
