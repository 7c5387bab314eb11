package dev.sluice.storageit;

import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** The Copy-on-Write scenarios on HDFS (the mini cluster), through {@code hdfs://localhost:<port>/...}. */
@ExtendWith(Servers.class)
class HdfsCopyOnWriteTest implements CopyOnWriteScenarios, ListingScenarios, HudiReadsScenarios,
    IncrementalScenarios, CompactionScenarios,
    MergeOnReadScenarios {
  private static HdfsServer hdfs;

  @BeforeAll
  static void cluster(HdfsServer server) {
    hdfs = server;
  }

  @Override
  public String newLocation(String name) {
    return hdfs.newFolder("tables/" + name);
  }

  @Override
  public Map<String, String> settings() {
    return hdfs.clientSettings();
  }

  @Override
  public boolean filesAppearAtClose() {
    return false;
  }

  @Override
  public long serverListRequests(String location) {
    return ServerCounters.hdfsListings();
  }

  @Override
  public boolean appends() {
    return true;
  }
}
