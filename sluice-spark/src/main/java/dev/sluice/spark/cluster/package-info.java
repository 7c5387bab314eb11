/**
 * A Spark standalone cluster (a Master and Workers as their own JVMs on loopback) started from a test or a
 * benchmark with no Spark distribution. Uses only the JDK.
 */
package dev.sluice.spark.cluster;
