package dev.sluice.spark.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spark standalone cluster for a test, with no Spark distribution: a Master and Workers, each its own JVM on
 * Spark's jars only, on loopback addresses, every port chosen by the system. Spark finds its "home" in a scratch
 * folder with an empty {@code jars/}: the executors a Worker starts get their whole class path from the
 * application ({@code spark.executor.extraClassPath}). {@link #close} ends the Workers' executors, the Workers and
 * the Master, forcibly if they do not stop.
 *
 * <p>For tests and benchmarks on one machine (SparkClusterIT, {@code sluice-bench --engine spark-cluster}), not for
 * running a production cluster: it uses only the JDK, so it costs the bundle nothing.
 */
public final class StandaloneCluster implements AutoCloseable {
  /** Spark 3.5.7's Java 17 opens (its JavaModuleOptions), for every Spark JVM the test starts itself. */
  public static final List<String> JAVA_17_OPENS = List.of("-XX:+IgnoreUnrecognizedVMOptions",
      "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED", "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
      "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
      "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED", "-Djdk.reflect.useDirectMethodHandle=false");
  private static final Pattern MASTER_URL = Pattern.compile("Starting Spark master at (spark://\\S+)");
  private static final long START_SECONDS = 240;

  private final Path dir;
  private final String sparkClassPath;
  private final List<Process> processes = new ArrayList<>();
  private String masterUrl;

  private StandaloneCluster(Path dir, String sparkClassPath) {
    this.dir = dir;
    this.sparkClassPath = sparkClassPath;
  }

  /**
   * Starts a Master on 127.0.0.1 and one Worker (one core, {@code workerMemory}) per host in {@code workerHosts}.
   *
   * @param dir scratch folder: Spark's "home", the Workers' work folders, every JVM's log
   * @param sparkJars Spark's jars (and its dependencies) at Spark's own versions
   * @param workerHosts the address each Worker binds (loopback addresses; one Worker per entry)
   * @param workerMemory the memory each Worker offers its executors ({@code 1g})
   * @return the running cluster; {@link #close} stops it
   */
  public static StandaloneCluster start(Path dir, List<Path> sparkJars, List<String> workerHosts, String workerMemory) {
    StandaloneCluster c = new StandaloneCluster(dir, classPath(sparkJars));
    // also when the test JVM is ended without @AfterAll (a fork timeout): no Spark JVM outlives it
    Runtime.getRuntime().addShutdownHook(new Thread(c::close, "spark-cluster-stop"));
    try {
      Files.createDirectories(dir.resolve("spark-home/jars"));
      Process master = c.launch("master", List.of("org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
          "--port", "0", "--webui-port", "0"));
      c.masterUrl = c.await("master", master, MASTER_URL);
      for (int i = 0; i < workerHosts.size(); i++) {
        String name = "worker-" + i;
        Path work = Files.createDirectories(dir.resolve(name + "-work"));
        Process w = c.launch(name, List.of("org.apache.spark.deploy.worker.Worker", "--host", workerHosts.get(i),
            "--port", "0", "--webui-port", "0", "--cores", "1", "--memory", workerMemory, "--work-dir",
            work.toString(), c.masterUrl));
        c.await(name, w, Pattern.compile("Successfully registered with master"));
      }
      return c;
    } catch (IOException e) {
      c.close();
      throw new UncheckedIOException(e);
    } catch (RuntimeException | Error e) {
      c.close();
      throw e;
    }
  }

  /**
   * The jars as one class path.
   *
   * @param jars the jars
   * @return them joined with {@code :}
   */
  public static String classPath(List<Path> jars) {
    return String.join(":", jars.stream().map(Path::toString).toList());
  }

  /**
   * The Master's address.
   *
   * @return {@code spark://127.0.0.1:port}
   */
  public String masterUrl() {
    return masterUrl;
  }

  private synchronized Process launch(String name, List<String> mainAndArgs) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(javaBin(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC"));
    cmd.addAll(JAVA_17_OPENS);
    cmd.addAll(List.of("-cp", sparkClassPath));
    cmd.addAll(mainAndArgs);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(log(name).toFile());
    pb.environment().put("SPARK_HOME", dir.resolve("spark-home").toString());
    pb.environment().put("SPARK_SCALA_VERSION", "2.12");
    Process p = pb.start();
    processes.add(p);
    return p;
  }

  /**
   * The executor JVMs running now: the children of the Workers' JVMs (a Worker starts each executor as its own
   * process).
   *
   * @return their process handles
   */
  public synchronized List<ProcessHandle> executors() {
    List<ProcessHandle> out = new ArrayList<>();
    for (int i = 1; i < processes.size(); i++) {
      processes.get(i).children().filter(ProcessHandle::isAlive).forEach(out::add);
    }
    return out;
  }

  /**
   * The java launcher of this JVM's runtime.
   *
   * @return its path
   */
  public static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * A JVM's log.
   *
   * @param name {@code master} or {@code worker-<i>}
   * @return its path
   */
  public Path log(String name) {
    return dir.resolve(name + ".log");
  }

  /** Waits for {@code pattern} in the JVM's log and returns its first group (or the match). */
  private String await(String name, Process p, Pattern pattern) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
    while (System.nanoTime() < deadline) {
      String text = Files.exists(log(name)) ? Files.readString(log(name)) : "";
      Matcher m = pattern.matcher(text);
      if (m.find()) {
        return m.groupCount() > 0 ? m.group(1) : m.group();
      }
      if (!p.isAlive()) {
        throw new IllegalStateException("Spark " + name + " exited with " + p.exitValue() + ":\n" + tail(text));
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting " + name, e);
      }
    }
    throw new IllegalStateException("Spark " + name + " did not start in " + START_SECONDS + " s:\n"
        + tail(Files.readString(log(name))));
  }

  /**
   * The end of a log, for an error message.
   *
   * @param text the log
   * @return its last 4000 characters
   */
  public static String tail(String text) {
    return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
  }

  /** Ends the Workers' executors first (their children), then every JVM started; forcibly after 20 s. */
  @Override
  public synchronized void close() {
    List<ProcessHandle> all = new ArrayList<>();
    for (Process p : processes) {
      p.descendants().forEach(all::add);
    }
    for (int i = processes.size() - 1; i >= 0; i--) {
      all.add(processes.get(i).toHandle());
    }
    all.forEach(ProcessHandle::destroy);
    for (ProcessHandle h : all) {
      try {
        h.onExit().get(20, TimeUnit.SECONDS);
      } catch (Exception e) {
        // not ended by SIGTERM in time (or the wait was interrupted): SIGKILL below
        h.destroyForcibly();
      }
    }
    all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }
}
