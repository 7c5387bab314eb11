package dev.sluice.storageit;

import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** The Copy-on-Write scenarios on S3 (S3Proxy on loopback), through {@code s3a://bucket/...}. */
@ExtendWith(Servers.class)
class S3CopyOnWriteTest implements CopyOnWriteScenarios, ListingScenarios, HudiReadsScenarios,
    IncrementalScenarios, CompactionScenarios,
    MergeOnReadScenarios {
  private static S3Server s3;
  private static String bucket;

  @BeforeAll
  static void server(S3Server server) {
    s3 = server;
    bucket = server.newBucket("cow");
  }

  @Override
  public String newLocation(String name) {
    return "s3a://" + bucket + "/" + name + "-" + Servers.uniqueSuffix();
  }

  @Override
  public Map<String, String> settings() {
    return s3.s3aSettings();
  }

  @Override
  public boolean filesAppearAtClose() {
    return true;
  }

  @Override
  public long serverListRequests(String location) {
    return ServerCounters.s3ListRequests(location, s3.s3aSettings());
  }

  @Override
  public boolean appends() {
    return false;
  }
}
