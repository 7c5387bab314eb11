/**
 * Sluice on Apache Spark: {@link dev.sluice.spark.SluiceSpark} writes a Dataset to a Hudi table with the engine's
 * own units of work, one Spark task per file group and the commit on the driver. A front end: it uses only
 * {@code dev.sluice.api} and {@code dev.sluice.storage} (SparkLayeringTest).
 */
package dev.sluice.spark;
