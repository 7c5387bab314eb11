package dev.sluice.storageit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;

/** The request counters Hadoop's clients keep, read to count what reached the servers. */
final class ServerCounters {
  private ServerCounters() {
  }

  /** NameNode listing calls made by every HDFS client of this JVM ({@code op_list_status}). */
  static long hdfsListings() {
    StorageStatistics stats = FileSystem.getGlobalStorageStatistics().get("DFSOpsCountStatistics");
    if (stats == null) {
      return 0;
    }
    Long n = stats.getLong("op_list_status");
    return n == null ? 0 : n;
  }

  /**
   * LIST requests sent by the S3A client of {@code location}'s bucket. Hadoop caches one file system per bucket,
   * so this is the instance the table's storage uses.
   */
  static long s3ListRequests(String location, Map<String, String> settings) {
    Configuration conf = new Configuration();
    settings.forEach(conf::set);
    try {
      FileSystem fs = FileSystem.get(URI.create(location), conf);
      Long n = IOStatisticsSupport.retrieveIOStatistics(fs).counters().get("object_list_request");
      return n == null ? 0 : n;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
