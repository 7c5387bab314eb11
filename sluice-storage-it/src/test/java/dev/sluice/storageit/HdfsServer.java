package dev.sluice.storageit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Hadoop's mini HDFS cluster (one NameNode, one DataNode, every port on 127.0.0.1, blocks in a temp folder),
 * started on first use and shared by every test class of the run; JUnit stops it and deletes its folder when the
 * run ends. Get it with {@link Servers#hdfs(ExtensionContext)}.
 */
public final class HdfsServer implements ExtensionContext.Store.CloseableResource {
  private final MiniDFSCluster cluster;
  private final Path baseDir;
  private final String uri;

  private HdfsServer(MiniDFSCluster cluster, Path baseDir) {
    this.cluster = cluster;
    this.baseDir = baseDir;
    this.uri = "hdfs://localhost:" + cluster.getNameNodePort();
  }

  static HdfsServer start() {
    Path dir;
    try {
      dir = Files.createTempDirectory("sluice-minidfs");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Configuration conf = new HdfsConfiguration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.toString());
    conf.setInt("dfs.replication", 1);
    // the web UIs are not needed; loopback only either way
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    // the cluster is ready once the DataNode has reported in: heartbeat every second rather than every three
    conf.setLong("dfs.heartbeat.interval", 1);
    try {
      MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, dir.toFile())
          .numDataNodes(1)
          .format(true)
          .build();
      cluster.waitActive();
      return new HdfsServer(cluster, dir);
    } catch (IOException e) {
      Servers.deleteTree(dir);
      throw new UncheckedIOException("cannot start the HDFS mini cluster", e);
    }
  }

  /** The file system's URI, {@code hdfs://localhost:<port>} (no trailing slash). */
  public String uri() {
    return uri;
  }

  /** A fresh folder URI under the file system's root for one test's table(s). */
  public String newFolder(String name) {
    return uri + "/" + name + "-" + Servers.uniqueSuffix();
  }

  /**
   * Client settings every Sluice (and Hudi) configuration on this cluster needs: one replica, as there is one
   * DataNode (the client asks for the replication of the files it writes).
   */
  public Map<String, String> clientSettings() {
    return Map.of("dfs.replication", "1");
  }

  @Override
  public void close() {
    try {
      cluster.shutdown(true);
    } finally {
      Servers.deleteTree(baseDir);
    }
  }
}
