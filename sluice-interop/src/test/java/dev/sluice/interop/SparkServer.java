package dev.sluice.interop;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Spark oracle kept running for the rest of this test JVM ({@code SparkOracle serve}): Spark's start-up with a
 * Hudi bundle is most of a {@link HudiSpark} call's time, and the test classes of one surefire fork that use the same
 * Hudi version pay it once instead of once per call. Each request runs in a new session of the one SparkContext (its
 * own SQL settings, temporary views and caches), so a request sees the tables as a fresh process would.
 *
 * <p>At most {@value #MAX_RUNNING} servers live per test JVM (each holds a Spark driver's heap), one per Hudi version
 * last used: a class that reads with one version what it wrote with another keeps both. The least recently used one
 * is stopped without waiting for it (its end of input ends it). A server that died or timed out is replaced on the
 * next call. The JVM's shutdown closes the servers' input, which ends them.
 *
 * <p>On where {@code sluice.spark.oracle.shared} is {@code true}: this module's pom sets it (default {@code true};
 * {@code -Dsluice.spark.oracle.shared=false} starts a JVM per call); elsewhere (sluice-spark, which takes this
 * module's test jar) each call starts its own JVM unless that module's pom sets it too.
 */
final class SparkServer {
  /** System property: {@code false} runs each call in its own Spark JVM. */
  static final String SHARED_PROPERTY = "sluice.spark.oracle.shared";

  private static final String SERVED = "#served ";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "spark-oracle-watchdog");
    t.setDaemon(true);
    return t;
  });
  private static final int MAX_RUNNING = 2;
  /** The running servers by their command line, least recently used first. */
  private static final java.util.LinkedHashMap<List<String>, SparkServer> RUNNING = new java.util.LinkedHashMap<>(4,
      0.75f, true);
  private static boolean hooked;

  private final List<String> command;
  private final String hudiVersion;
  private final Process process;
  private final Path log;
  private final PrintWriter in;
  private final BufferedReader out;

  private SparkServer(List<String> command, String hudiVersion) throws IOException {
    this.command = List.copyOf(command);
    this.hudiVersion = hudiVersion;
    this.log = Files.createTempFile("spark-oracle-server", ".log");
    List<String> serve = new ArrayList<>(command);
    serve.add("serve");
    this.process = new ProcessBuilder(serve).redirectError(log.toFile()).start();
    this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
    this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /** True if the test JVM's {@code sluice.spark.oracle.shared} is {@code true}. */
  static boolean enabled() {
    return Boolean.getBoolean(SHARED_PROPERTY);
  }

  /**
   * Runs {@code args} in the server started with {@code command} (the oracle's JVM command line up to its main class),
   * starting one if none runs with that command; returns the lines the request printed.
   *
   * @throws AssertionError if the request failed, the server died, or it took longer than {@code timeout}
   */
  static synchronized List<String> call(List<String> command, String hudiVersion, List<String> args,
      Duration timeout) {
    SparkServer server = RUNNING.get(command);
    if (server != null && !server.process.isAlive()) {
      RUNNING.remove(command);
      server.stop(false);
      server = null;
    }
    if (server == null) {
      while (RUNNING.size() >= MAX_RUNNING) {
        List<String> eldest = RUNNING.keySet().iterator().next();
        // not waited for: its Spark stops while the new one starts
        RUNNING.remove(eldest).stop(false);
      }
      try {
        server = new SparkServer(command, hudiVersion);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start the Spark oracle", e);
      }
      RUNNING.put(command, server);
      if (!hooked) {
        hooked = true;
        Runtime.getRuntime().addShutdownHook(new Thread(SparkServer::stopAll, "spark-oracle-stop"));
      }
    }
    try {
      return server.request(args, timeout);
    } catch (AssertionError | RuntimeException e) {
      if (!server.process.isAlive()) {
        RUNNING.remove(command);
        server.deleteLog();
      }
      throw e;
    }
  }

  private static synchronized void stopAll() {
    RUNNING.values().forEach(s -> s.stop(true));
    RUNNING.clear();
  }

  private List<String> request(List<String> args, Duration timeout) {
    long logStart = logLength();
    AtomicBoolean timedOut = new AtomicBoolean();
    ScheduledFuture<?> watchdog = WATCHDOG.schedule(() -> {
      timedOut.set(true);
      process.destroyForcibly();
    }, timeout.toMillis(), TimeUnit.MILLISECONDS);
    try {
      in.println(JSON.writeValueAsString(args));
      List<String> lines = new ArrayList<>();
      for (String line = out.readLine(); ; line = out.readLine()) {
        if (line == null) {
          throw new AssertionError("the Spark oracle (Hudi " + hudiVersion + ") " + (timedOut.get() ? "timed out"
              : "ended") + " on " + args + ":\n" + logSince(logStart));
        }
        if (line.startsWith(SERVED)) {
          int status = Integer.parseInt(line.substring(SERVED.length()).trim());
          if (status != 0) {
            throw new AssertionError("the Spark oracle (Hudi " + hudiVersion + ") failed (" + status + ") on " + args
                + ":\n" + logSince(logStart));
          }
          return lines;
        }
        lines.add(line);
      }
    } catch (IOException e) {
      throw new AssertionError("the Spark oracle (Hudi " + hudiVersion + ") broke off on " + args + ":\n"
          + logSince(logStart), e);
    } finally {
      watchdog.cancel(false);
    }
  }

  private long logLength() {
    try {
      return Files.size(log);
    } catch (IOException e) {
      return 0;
    }
  }

  /** What the server logged since {@code start} (the request's part), its last 6,000 characters. */
  private String logSince(long start) {
    try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
      long from = Math.max(start, file.length() - 6000);
      byte[] bytes = new byte[(int) (file.length() - from)];
      file.seek(from);
      file.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** Ends the server: its end of input ends its loop, it stops Spark and exits; {@code wait}: at most 30 s for that. */
  private void stop(boolean wait) {
    in.close();
    if (!wait) {
      process.onExit().thenRun(this::deleteLog);
      // a Spark that does not stop within a minute is ended
      WATCHDOG.schedule(process::destroyForcibly, 60, TimeUnit.SECONDS);
      return;
    }
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    deleteLog();
  }

  private void deleteLog() {
    try {
      Files.deleteIfExists(log);
    } catch (IOException e) {
      // a temp file left behind: nothing to undo
      log.toFile().deleteOnExit();
    }
  }
}
