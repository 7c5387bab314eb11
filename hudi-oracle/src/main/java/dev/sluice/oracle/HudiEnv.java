package dev.sluice.oracle;

import java.io.IOException;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.engine.HoodieLocalEngineContext;
import org.apache.hudi.common.model.OverwriteWithLatestAvroPayload;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.hudi.keygen.BaseKeyGenerator;
import org.apache.hudi.keygen.KeyGenerator;
import org.apache.hudi.keygen.constant.KeyGeneratorOptions;
import org.apache.hudi.keygen.factory.HoodieAvroKeyGeneratorFactory;
import org.apache.hudi.storage.StorageConfiguration;

/**
 * Shared plumbing: Hadoop/Hudi configuration objects, meta client and the table's key generator.
 */
final class HudiEnv {

  private HudiEnv() {
  }

  static Configuration hadoopConf() {
    Configuration conf = new Configuration();
    // Local runs only; keep Hadoop from looking for native libraries or a cluster.
    conf.set("fs.defaultFS", "file:///");
    conf.set("fs.file.impl", NioLocalFileSystem.class.getName());
    return conf;
  }

  static StorageConfiguration<Configuration> storageConf() {
    return HadoopFSUtils.getStorageConf(hadoopConf());
  }

  static HoodieLocalEngineContext localContext() {
    return new HoodieLocalEngineContext(storageConf());
  }

  static HoodieTableMetaClient metaClient(String basePath) {
    return HoodieTableMetaClient.builder()
        .setConf(storageConf())
        .setBasePath(basePath)
        .setLoadActiveTimelineOnLoad(true)
        .build();
  }

  /** The table's payload class, or the writer default when hoodie.properties carries none (CoW). */
  static String payloadClass(HoodieTableConfig tableConfig) {
    String payload = tableConfig.getPayloadClass();
    return payload == null || payload.isEmpty() ? OverwriteWithLatestAvroPayload.class.getName() : payload;
  }

  /**
   * Key-generation properties derived from hoodie.properties, the way a writer configured from the table
   * would set them.
   */
  static TypedProperties keyProps(HoodieTableConfig tableConfig) {
    TypedProperties props = new TypedProperties();
    String recordKeys = tableConfig.getRecordKeyFieldProp();
    props.setProperty(KeyGeneratorOptions.RECORDKEY_FIELD_NAME.key(), recordKeys == null ? "" : recordKeys);
    String partitions = tableConfig.getPartitionFieldProp();
    props.setProperty(KeyGeneratorOptions.PARTITIONPATH_FIELD_NAME.key(), partitions == null ? "" : partitions);
    props.setProperty(KeyGeneratorOptions.HIVE_STYLE_PARTITIONING_ENABLE.key(),
        tableConfig.getHiveStylePartitioningEnable());
    props.setProperty(KeyGeneratorOptions.URL_ENCODE_PARTITIONING.key(), tableConfig.getUrlEncodePartitioning());
    String keyGen = tableConfig.getKeyGeneratorClassName();
    if (keyGen != null) {
      props.setProperty("hoodie.datasource.write.keygenerator.class", avroKeyGenerator(keyGen));
    }
    return props;
  }

  /**
   * The Avro key generator for a table's key generator class. Tables written by Spark (and by Sluice) name the
   * Spark classes (e.g. {@code SimpleKeyGenerator}), which live in hudi-spark-client: a Java-client writer cannot
   * load them and must be configured with the Avro class that computes the same keys, as Spark's own writer maps
   * between the two ({@code HoodieSparkKeyGeneratorFactory}).
   */
  static String avroKeyGenerator(String tableKeyGenerator) {
    String pkg = "org.apache.hudi.keygen.";
    switch (tableKeyGenerator) {
      case "org.apache.hudi.keygen.SimpleKeyGenerator":
        return pkg + "SimpleAvroKeyGenerator";
      case "org.apache.hudi.keygen.ComplexKeyGenerator":
        return pkg + "ComplexAvroKeyGenerator";
      case "org.apache.hudi.keygen.NonpartitionedKeyGenerator":
        return pkg + "NonpartitionedAvroKeyGenerator";
      case "org.apache.hudi.keygen.CustomKeyGenerator":
        return pkg + "CustomAvroKeyGenerator";
      case "org.apache.hudi.keygen.TimestampBasedKeyGenerator":
        return pkg + "TimestampBasedAvroKeyGenerator";
      case "org.apache.hudi.keygen.GlobalDeleteKeyGenerator":
        return pkg + "GlobalAvroDeleteKeyGenerator";
      default:
        return tableKeyGenerator;
    }
  }

  static BaseKeyGenerator keyGenerator(HoodieTableConfig tableConfig, Map<String, String> extra) throws IOException {
    TypedProperties props = keyProps(tableConfig);
    props.putAll(extra);
    KeyGenerator generator = HoodieAvroKeyGeneratorFactory.createKeyGenerator(props);
    return (BaseKeyGenerator) generator;
  }
}
