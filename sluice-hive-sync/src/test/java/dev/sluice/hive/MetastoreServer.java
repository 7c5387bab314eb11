package dev.sluice.hive;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Hive 3.1.3 standalone metastore (embedded Derby, schema created by DataNucleus) in a child JVM on a free
 * loopback port, with its warehouse and database under a temporary folder. The classpath is the one
 * {@code hive-metastore-server} writes ({@code sluice.metastore.classpath}).
 */
final class MetastoreServer implements AutoCloseable {
  private static final long START_TIMEOUT_SECONDS = 240;

  private final Process process;
  private final int port;
  private final Path log;

  private MetastoreServer(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  private static MetastoreServer shared;

  /**
   * The metastore the test classes of this JVM share (started once, stopped when the JVM exits): a start takes
   * tens of seconds, the tests keep apart by database.
   */
  static synchronized MetastoreServer shared() throws IOException, InterruptedException {
    if (shared == null) {
      Path dir = Files.createTempDirectory("sluice-metastore");
      shared = start(dir);
      MetastoreServer s = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(s::close));
    }
    return shared;
  }

  static MetastoreServer start(Path dir) throws IOException, InterruptedException {
    String cpFile = System.getProperty("sluice.metastore.classpath");
    if (cpFile == null || !Files.exists(Path.of(cpFile))) {
      throw new IllegalStateException("no metastore classpath at " + cpFile + ": build hive-metastore-server first");
    }
    int port = freePort();
    Path conf = Files.createDirectories(dir.resolve("conf"));
    Path db = dir.resolve("metastore_db");
    Files.writeString(conf.resolve("metastore-site.xml"), "<configuration>\n"
        + prop("javax.jdo.option.ConnectionURL", "jdbc:derby:;databaseName=" + db + ";create=true")
        + prop("datanucleus.schema.autoCreateAll", "true")
        + prop("metastore.schema.verification", "false")
        + prop("metastore.warehouse.dir", dir.resolve("warehouse").toUri().toString())
        + prop("metastore.thrift.port", String.valueOf(port))
        + prop("metastore.thrift.bind.host", "127.0.0.1")
        // the standalone jar lacks hive-exec's expression proxy and replication cleaner: use what it has
        + prop("metastore.expression.proxy", "org.apache.hadoop.hive.metastore.DefaultPartitionExpressionProxy")
        + prop("metastore.task.threads.always", "org.apache.hadoop.hive.metastore.events.EventCleanerTask")
        + "</configuration>\n");
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx384m", "-XX:TieredStopAtLevel=1",
        "-Dderby.stream.error.file=" + dir.resolve("derby.log"),
        "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens", "java.base/java.util=ALL-UNNAMED",
        "--add-opens", "java.base/java.net=ALL-UNNAMED", "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
        "-cp", conf + File.pathSeparator + Files.readString(Path.of(cpFile)).trim(),
        "org.apache.hadoop.hive.metastore.HiveMetaStore", "-p", String.valueOf(port)));
    Path log = dir.resolve("metastore.log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    MetastoreServer server = new MetastoreServer(p, port, log);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new IllegalStateException("the metastore exited (" + p.exitValue() + "):\n" + server.logTail());
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
        return server;
      } catch (IOException notYet) {
        Thread.sleep(300);
      }
    }
    server.close();
    throw new IllegalStateException("the metastore did not listen within " + START_TIMEOUT_SECONDS + " s:\n"
        + server.logTail());
  }

  private static String prop(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value.replace("&", "&amp;") + "</value></property>\n";
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  String uri() {
    return "thrift://127.0.0.1:" + port;
  }

  String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
