package dev.sluice.hadoop;

import dev.sluice.storage.Storage;
import dev.sluice.storage.StorageProvider;
import java.nio.file.Files;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Serves the URI schemes Hadoop file systems handle, through {@link HadoopStorage}. Registered with
 * {@link java.util.ServiceLoader}, so {@code Storages.forLocation} finds it when this module is on the class
 * path. Whether a scheme works also depends on its connector being there (hadoop-aws for s3a, the GCS
 * connector for gs, ...); HDFS, viewfs, webhdfs and the local file system come with the Hadoop client.
 *
 * <p>The Hadoop configuration is built as: Hadoop's defaults and class-path {@code core-site.xml}; then
 * {@code core-site.xml} and {@code hdfs-site.xml} from the directory named by the setting
 * {@value #CONF_DIR} or, if that is absent, the environment variable {@code HADOOP_CONF_DIR}; then every
 * setting, copied verbatim (so {@code fs.defaultFS}, {@code fs.s3a.endpoint}, credential provider keys and so
 * on pass straight through, and override the files).
 */
public final class HadoopStorageProvider implements StorageProvider {
  /** Setting naming a directory with Hadoop's site files; overrides {@code HADOOP_CONF_DIR}. */
  public static final String CONF_DIR = "sluice.hadoop.conf.dir";

  private static final Set<String> SCHEMES = Set.of(
      "hdfs", "webhdfs", "swebhdfs", "viewfs", "file",
      "s3a", "s3", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs", "oss", "cosn", "obs", "ofs", "o3fs");

  private static final String[] SITE_FILES = {"core-site.xml", "hdfs-site.xml"};

  /** For ServiceLoader. */
  public HadoopStorageProvider() {
  }

  @Override
  public Set<String> schemes() {
    return SCHEMES;
  }

  @Override
  public Storage create(String location, Map<String, String> settings) {
    return HadoopStorage.forLocation(location, configuration(settings, System.getenv("HADOOP_CONF_DIR")));
  }

  /** The Hadoop configuration for {@code settings}, with {@code envConfDir} standing in for HADOOP_CONF_DIR. */
  static Configuration configuration(Map<String, String> settings, String envConfDir) {
    Configuration conf = new Configuration();
    String confDir = settings.getOrDefault(CONF_DIR, envConfDir);
    if (confDir != null && !confDir.isBlank()) {
      for (String name : SITE_FILES) {
        java.nio.file.Path file = java.nio.file.Path.of(confDir, name);
        if (Files.isRegularFile(file)) {
          conf.addResource(new Path(file.toUri()));
        }
      }
    }
    for (Map.Entry<String, String> e : settings.entrySet()) {
      if (e.getKey() != null && e.getValue() != null) {
        conf.set(e.getKey(), e.getValue());
      }
    }
    // plain Apache Hadoop has no s3:// file system; Hudi users outside EMR map it to S3A, so default to that
    conf.setIfUnset("fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
    conf.setIfUnset("fs.AbstractFileSystem.s3.impl", "org.apache.hadoop.fs.s3a.S3A");
    return conf;
  }
}
