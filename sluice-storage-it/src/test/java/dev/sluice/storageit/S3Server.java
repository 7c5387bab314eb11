package dev.sluice.storageit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.TransientApiMetadata;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An S3-compatible server: S3Proxy over jclouds' in-memory ("transient") blob store, listening on 127.0.0.1 on
 * a free port, checking AWS V2/V4 signatures against one static key pair. Started on first use and shared by
 * the run's test classes; JUnit stops it when the run ends. Get it with {@link Servers#s3(ExtensionContext)}.
 */
public final class S3Server implements ExtensionContext.Store.CloseableResource {
  /** The static access key. */
  public static final String ACCESS_KEY = "sluice-access";
  /** The static secret key. */
  public static final String SECRET_KEY = "sluice-secret";

  private final S3Proxy proxy;
  private final BlobStoreContext context;
  private final String endpoint;
  private final MetadataServiceGuard guard;
  private final Path bufferDir;

  private S3Server(S3Proxy proxy, BlobStoreContext context, MetadataServiceGuard guard, Path bufferDir) {
    this.proxy = proxy;
    this.context = context;
    this.guard = guard;
    this.bufferDir = bufferDir;
    this.endpoint = "http://127.0.0.1:" + proxy.getPort();
  }

  static S3Server start() {
    MetadataServiceGuard guard = MetadataServiceGuard.install();
    // by API metadata, not by provider id: a provider lookup would load every provider S3Proxy registers
    BlobStoreContext context = ContextBuilder.newBuilder(new TransientApiMetadata())
        .credentials("unused", "unused")
        .overrides(new Properties())
        .build(BlobStoreContext.class);
    S3Proxy proxy = S3Proxy.builder()
        .blobStore(context.getBlobStore())
        .endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
        .build();
    try {
      proxy.start();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!"STARTED".equals(proxy.getState()) && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting S3Proxy", e);
    } catch (Exception e) {
      context.close();
      throw new IllegalStateException("cannot start S3Proxy", e);
    }
    if (!"STARTED".equals(proxy.getState())) {
      context.close();
      throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
    }
    try {
      // S3A buffers uploads on disk; the streams a simulated crash leaves open leave their buffers here
      return new S3Server(proxy, context, guard, Files.createTempDirectory("sluice-s3a-buffers"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The endpoint, {@code http://127.0.0.1:<port>}. */
  public String endpoint() {
    return endpoint;
  }

  /** Connections the AWS SDK made to the (stand-in) instance-metadata service; must stay 0. */
  public int metadataServiceProbes() {
    return guard.probes();
  }

  /** Creates a new, empty bucket with a unique name starting with {@code prefix} and returns its name. */
  public String newBucket(String prefix) {
    String name = (prefix + "-" + Servers.uniqueSuffix()).toLowerCase(Locale.ROOT);
    BlobStore store = context.getBlobStore();
    store.createContainerInLocation(null, name);
    return name;
  }

  /**
   * The S3A settings that reach this server and nothing else: its endpoint and region (so the SDK never looks a
   * region up), path-style requests, plain HTTP, the static key pair through {@code SimpleAWSCredentialsProvider}
   * only (no environment, profile or instance-metadata credentials), few retries (fail fast).
   */
  public Map<String, String> s3aSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("fs.s3a.endpoint", endpoint);
    s.put("fs.s3a.endpoint.region", "us-east-1");
    s.put("fs.s3a.path.style.access", "true");
    s.put("fs.s3a.connection.ssl.enabled", "false");
    s.put("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    s.put("fs.s3a.access.key", ACCESS_KEY);
    s.put("fs.s3a.secret.key", SECRET_KEY);
    s.put("fs.s3a.attempts.maximum", "2");
    s.put("fs.s3a.retry.limit", "2");
    s.put("fs.s3a.retry.interval", "10ms");
    s.put("fs.s3a.connection.establish.timeout", "5000");
    s.put("fs.s3a.connection.timeout", "30000");
    s.put("fs.s3a.buffer.dir", bufferDir.toString());
    return s;
  }

  @Override
  public void close() {
    try {
      proxy.stop();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop S3Proxy", e);
    } finally {
      context.close();
      Servers.deleteTree(bufferDir);
    }
  }
}
