package dev.sluice.storageit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The servers of a test run, each started once, on first use, and kept in JUnit's root store, which closes
 * (stops) them when the run ends. A test class registers this extension ({@code @ExtendWith(Servers.class)}) and
 * takes an {@link HdfsServer} or {@link S3Server} parameter, typically in a static {@code @BeforeAll} method.
 */
public final class Servers implements ParameterResolver {
  private static final AtomicLong COUNTER = new AtomicLong();

  /** For JUnit. */
  public Servers() {
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == HdfsServer.class || type == S3Server.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == HdfsServer.class ? hdfs(context) : s3(context);
  }

  /** The run's HDFS mini cluster, started now if this is the first use. */
  public static HdfsServer hdfs(ExtensionContext context) {
    return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(HdfsServer.class, k -> timed("HDFS mini cluster", HdfsServer::start), HdfsServer.class);
  }

  /** The run's S3 server, started now if this is the first use. */
  public static S3Server s3(ExtensionContext context) {
    return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(S3Server.class, k -> timed("S3 server", S3Server::start), S3Server.class);
  }

  private static <T> T timed(String what, Supplier<T> start) {
    long t0 = System.nanoTime();
    T server = start.get();
    // in the test's output file: how much of the run the servers cost
    System.err.printf("%s started in %d ms%n", what, (System.nanoTime() - t0) / 1_000_000);
    return server;
  }

  /** A suffix that makes folder and bucket names unique within the run. */
  static String uniqueSuffix() {
    return Long.toString(ProcessHandle.current().pid(), 36) + "-" + COUNTER.incrementAndGet();
  }

  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
