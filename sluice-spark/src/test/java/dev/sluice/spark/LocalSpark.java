package dev.sluice.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The Spark session of this module's tests: {@code local[2]} on loopback, no UI, two shuffle partitions (the tables
 * are small; Spark's default of 200 would be 200 tasks per shuffle). Callers add their own settings and call
 * {@code getOrCreate()}.
 */
final class LocalSpark {
  private LocalSpark() {
  }

  /** A builder of the tests' local session named {@code appName}. */
  static SparkSession.Builder builder(String appName) {
    return SparkSession.builder().master("local[2]").appName(appName)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2");
  }
}
