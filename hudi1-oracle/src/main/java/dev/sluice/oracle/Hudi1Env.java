package dev.sluice.oracle;

import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.common.engine.HoodieLocalEngineContext;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.hudi.storage.StorageConfiguration;

/** Hadoop and Hudi 1.x configuration objects and the meta client, built the same way for every command. */
final class Hudi1Env {

  private Hudi1Env() {
  }

  /** The Hadoop configuration with the command's {@code --conf} pairs on top; the default file system is local. */
  static StorageConfiguration<Configuration> storageConf(Map<String, String> settings) {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set("fs.file.impl", NioLocalFileSystem.class.getName());
    settings.forEach(conf::set);
    return HadoopFSUtils.getStorageConf(conf);
  }

  static HoodieLocalEngineContext localContext(Map<String, String> settings) {
    return new HoodieLocalEngineContext(storageConf(settings));
  }

  static HoodieTableMetaClient metaClient(String basePath, Map<String, String> settings) {
    return HoodieTableMetaClient.builder()
        .setConf(storageConf(settings))
        .setBasePath(basePath)
        .setLoadActiveTimelineOnLoad(true)
        .build();
  }
}
