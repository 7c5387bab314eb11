package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Tables;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice sync} reaches the Hive sync through the class path (the metastore itself is exercised by
 * sluice-hive-sync's tests): an unreachable metastore is a failure naming its URI, and a write whose automatic sync
 * fails still commits.
 */
class SyncCliTest {
  @TempDir
  Path dir;

  private static String deadUri() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "thrift://127.0.0.1:" + s.getLocalPort();
    }
  }

  private String table() throws IOException {
    String t = dir.resolve("t").toString();
    CliTest.Run c = CliTest.run("create", t, "--record-key", "id", "--precombine", "ts", "--columns",
        "id string, ts long, city string", "--partition-path", "city");
    assertEquals(0, c.exit(), c.err());
    return t;
  }

  @Test
  void anUnreachableMetastoreExitsOneNamingTheUri() throws IOException {
    String t = table();
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\": \"a\", \"ts\": 1, \"city\": \"oslo\"}\n");
    assertEquals(0, CliTest.run("insert", t, in.toString()).exit());
    String dead = deadUri();
    CliTest.Run r = CliTest.run("sync", t, "--metastore", dead, "--database", "d");
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.err().contains(dead) && r.err().contains("Hive Metastore"), r.err());
    CliTest.Run bad = CliTest.run("sync", t, "--metastore", "http://127.0.0.1:1");
    assertEquals(3, bad.exit(), bad.err());
    assertTrue(bad.err().contains("thrift://HOST:PORT"), bad.err());
  }

  @Test
  void aWriteWhoseSyncFailsStillCommits() throws IOException {
    String t = table();
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\": \"a\", \"ts\": 1, \"city\": \"oslo\"}\n");
    CliTest.Run w = CliTest.run("insert", t, in.toString(), "--conf", "hoodie.datasource.meta.sync.enable=true",
        "--conf", "hoodie.datasource.hive_sync.metastore.uris=" + deadUri());
    assertEquals(0, w.exit(), w.err());
    assertTrue(Tables.open(t).inspect().lastCompletedCommit().isPresent(), "the commit is durable");
  }
}
