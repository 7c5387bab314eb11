package dev.sluice.storageit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands in for the cloud instance-metadata service (169.254.169.254), which the AWS SDK asks for credentials
 * and regions when nothing else names them. The SDK is pointed here (system property
 * {@code aws.ec2MetadataServiceEndpoint}) so that a probe, should one happen, stays on this machine and is
 * counted: tests assert the count stays zero.
 */
final class MetadataServiceGuard {
  private static final String ENDPOINT_PROPERTY = "aws.ec2MetadataServiceEndpoint";
  private static MetadataServiceGuard installed;

  private final ServerSocket socket;
  private final AtomicInteger probes = new AtomicInteger();

  private MetadataServiceGuard(ServerSocket socket) {
    this.socket = socket;
  }

  /** Installs the guard for this JVM (once). */
  static synchronized MetadataServiceGuard install() {
    if (installed != null) {
      return installed;
    }
    try {
      ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      MetadataServiceGuard guard = new MetadataServiceGuard(socket);
      Thread acceptor = new Thread(guard::accept, "metadata-service-guard");
      acceptor.setDaemon(true);
      acceptor.start();
      System.setProperty(ENDPOINT_PROPERTY, "http://127.0.0.1:" + socket.getLocalPort());
      installed = guard;
      return guard;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the metadata service guard", e);
    }
  }

  private void accept() {
    while (!socket.isClosed()) {
      try (Socket s = socket.accept()) {
        probes.incrementAndGet();
      } catch (IOException e) {
        // closed at JVM exit; nothing to count
        return;
      }
    }
  }

  /** Connections made to the stand-in so far. */
  int probes() {
    return probes.get();
  }
}
