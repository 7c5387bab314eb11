package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.avro.generic.GenericRecord;
import org.apache.hudi.avro.model.HoodieCleanMetadata;
import org.apache.hudi.avro.HoodieAvroUtils;
import org.apache.hudi.client.HoodieJavaWriteClient;
import org.apache.hudi.client.WriteStatus;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.common.config.RecordMergeMode;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.model.DefaultHoodieRecordPayload;
import org.apache.hudi.common.model.HoodieAvroRecord;
import org.apache.hudi.common.model.HoodieKey;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieRecordPayload;
import org.apache.hudi.common.model.OverwriteWithLatestAvroPayload;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.util.HoodieRecordUtils;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.keygen.BaseKeyGenerator;
import org.apache.hudi.keygen.constant.KeyGeneratorOptions;
import org.apache.hudi.keygen.factory.HoodieAvroKeyGeneratorFactory;
import org.apache.hudi.table.action.HoodieWriteMetadata;

/**
 * {@code write}: one commit through Hudi 1.1.1's {@link HoodieJavaWriteClient} (BLOOM index) at the table's own
 * version (so a version-8 table stays at 8), committed explicitly as the 1.x Java client requires; prints the
 * instant time. {@code --op compact} schedules and runs a compaction (Merge-on-Read) and prints its instant.
 * {@code --op upsert-during-compaction} schedules a compaction, upserts the input while it is pending and only then
 * runs and commits the compaction, so the compaction is requested before the upsert and completes after it; it
 * prints the upsert's instant, then the compaction's. {@code --op schedule-compaction} only plans one (prints its
 * instant); {@code --op run-compaction --instant T} runs and commits the pending compaction T (one Sluice planned);
 * {@code --op clean} plans and runs a clean with the cleaner settings given by {@code --conf} (prints
 * {@code <instant> <files deleted>}, or {@code none}).
 * {@code --uncommitted} leaves the write inflight, as a writer that died before committing would.
 *
 * <p>Settings the 1.x Java client needs here: no embedded timeline server (no 1.x timeline service is on the
 * classpath), direct markers (the timeline-server-based ones need that server).
 */
final class WriteCommand {

  private WriteCommand() {
  }

  static void run(Args args, PrintStream out) throws IOException {
    String table = args.required("table");
    String op = args.required("op");
    AvroJson.Batch batch = AvroJson.readBatch(Path.of(args.required("input")));
    Map<String, String> userConf = args.conf();

    HoodieTableMetaClient metaClient = Hudi1Env.metaClient(table, userConf);
    HoodieTableConfig tableConfig = metaClient.getTableConfig();
    Properties props = writeProps(tableConfig, userConf);
    BaseKeyGenerator keyGenerator = (BaseKeyGenerator) HoodieAvroKeyGeneratorFactory.createKeyGenerator(
        keyProps(tableConfig, userConf));
    List<String> ordering = tableConfig.getOrderingFields();
    String orderingField = ordering.isEmpty() ? null : ordering.get(0);
    String payloadClass = tableConfig.getRecordMergeMode() == RecordMergeMode.EVENT_TIME_ORDERING
        ? DefaultHoodieRecordPayload.class.getName() : OverwriteWithLatestAvroPayload.class.getName();

    HoodieWriteConfig config = HoodieWriteConfig.newBuilder()
        .withPath(table)
        .forTable(tableConfig.getTableName())
        .withSchema(batch.schema().toString())
        .withProperties(props)
        .build();

    try (HoodieJavaWriteClient<HoodieRecordPayload> client =
             new HoodieJavaWriteClient<>(new HoodieJavaEngineContext(Hudi1Env.storageConf(userConf)), config)) {
      if (op.equals("compact")) {
        // schedule and run a compaction of the MoR table's file slices (the input only gives the schema)
        Option<String> compaction = client.scheduleCompaction(Option.empty());
        if (!compaction.isPresent()) {
          throw new IOException("Hudi scheduled no compaction on " + table);
        }
        HoodieWriteMetadata<List<WriteStatus>> result = client.compact(compaction.get());
        requireNoErrors(result.getWriteStatuses(), "compaction " + compaction.get());
        client.commitCompaction(compaction.get(), result, Option.empty());
        out.println(compaction.get());
        return;
      }
      if (op.equals("run-compaction")) {
        // run a compaction another engine (Sluice) planned, named by --instant
        String instant = args.required("instant");
        HoodieWriteMetadata<List<WriteStatus>> result = client.compact(instant);
        requireNoErrors(result.getWriteStatuses(), "compaction " + instant);
        client.commitCompaction(instant, result, Option.empty());
        out.println(instant);
        return;
      }
      if (op.equals("schedule-compaction")) {
        // only plan: another engine (Sluice) runs it
        Option<String> compaction = client.scheduleCompaction(Option.empty());
        if (!compaction.isPresent()) {
          throw new IOException("Hudi scheduled no compaction on " + table);
        }
        out.println(compaction.get());
        return;
      }
      if (op.equals("clean")) {
        // plan and run a clean with the cleaner settings of --conf; prints its instant, or "none"
        HoodieCleanMetadata cleaned = client.clean();
        out.println(cleaned == null ? "none" : cleaned.getStartCleanTime() + " " + cleaned.getTotalFilesDeleted());
        return;
      }
      if (op.equals("upsert-during-compaction")) {
        Option<String> compaction = client.scheduleCompaction(Option.empty());
        if (!compaction.isPresent()) {
          throw new IOException("Hudi scheduled no compaction on " + table);
        }
        String upsert = client.startCommit();
        List<WriteStatus> written = client.upsert(records(batch, keyGenerator, payloadClass, orderingField), upsert);
        requireNoErrors(written, "write " + upsert);
        if (!client.commit(upsert, written)) {
          throw new IOException("Hudi did not commit " + upsert);
        }
        HoodieWriteMetadata<List<WriteStatus>> result = client.compact(compaction.get());
        requireNoErrors(result.getWriteStatuses(), "compaction " + compaction.get());
        client.commitCompaction(compaction.get(), result, Option.empty());
        out.println(upsert + " " + compaction.get());
        return;
      }
      String instant = client.startCommit();
      List<WriteStatus> statuses = switch (op) {
        case "insert" -> client.insert(records(batch, keyGenerator, payloadClass, orderingField), instant);
        case "upsert" -> client.upsert(records(batch, keyGenerator, payloadClass, orderingField), instant);
        case "bulk_insert" -> client.bulkInsert(records(batch, keyGenerator, payloadClass, orderingField), instant);
        case "delete" -> client.delete(keys(batch, keyGenerator), instant);
        default -> throw new Args.UsageException("unknown --op " + op
            + " (insert|upsert|delete|bulk_insert|compact|schedule-compaction|run-compaction|clean|upsert-during-compaction)");
      };
      requireNoErrors(statuses, "write " + instant);
      if (args.flag("uncommitted")) {
        // a failed write as a crash would leave it: data files written, the instant inflight
        out.println(instant);
        return;
      }
      // the 1.x Java client leaves a write inflight until it is committed explicitly
      if (!client.commit(instant, statuses)) {
        throw new IOException("Hudi did not commit " + instant);
      }
      out.println(instant);
    }
  }

  private static void requireNoErrors(List<WriteStatus> statuses, String what) throws IOException {
    long errors = statuses.stream().mapToLong(WriteStatus::getTotalErrorRecords).sum();
    if (errors > 0) {
      throw new IOException(what + " reported " + errors + " error records");
    }
  }

  /** Writer properties: the oracle's defaults, the table's own version and keys, then the user's --conf. */
  static Properties writeProps(HoodieTableConfig tableConfig, Map<String, String> userConf) {
    Properties props = new Properties();
    props.putAll(keyProps(tableConfig, Map.of()));
    props.setProperty("hoodie.index.type", "BLOOM");
    props.setProperty("hoodie.metadata.enable", "true");
    props.setProperty("hoodie.parquet.compression.codec", "snappy");
    props.setProperty("hoodie.embed.timeline.server", "false");
    props.setProperty("hoodie.write.markers.type", "DIRECT");
    // write the table at its own version: 1.1.1's default (9) would upgrade a version-8 table first
    props.setProperty(HoodieWriteConfig.WRITE_TABLE_VERSION.key(),
        Integer.toString(tableConfig.getTableVersion().versionCode()));
    props.setProperty("hoodie.compact.inline", "false");
    props.setProperty("hoodie.compact.inline.max.delta.commits", "1");
    tableConfig.getOrderingFieldsStr().ifPresent(f -> props.setProperty("hoodie.table.ordering.fields", f));
    props.putAll(userConf);
    return props;
  }

  /**
   * The key generator a Java-client user configures for a table whose {@code hoodie.table.keygenerator.type} names
   * a Spark one (Hudi 1.0's Spark writer and Sluice write {@code SIMPLE}, {@code COMPLEX}, ...): its Avro twin, which
   * makes the same keys and partition paths; the Spark classes are not on the Java client's classpath.
   */
  static String javaClientKeyGenerator(String className) {
    return switch (className) {
      case "org.apache.hudi.keygen.SimpleKeyGenerator" -> "org.apache.hudi.keygen.SimpleAvroKeyGenerator";
      case "org.apache.hudi.keygen.ComplexKeyGenerator" -> "org.apache.hudi.keygen.ComplexAvroKeyGenerator";
      case "org.apache.hudi.keygen.NonpartitionedKeyGenerator" -> "org.apache.hudi.keygen.NonpartitionedAvroKeyGenerator";
      default -> className;
    };
  }

  private static TypedProperties keyProps(HoodieTableConfig tableConfig, Map<String, String> extra) {
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
      props.setProperty("hoodie.datasource.write.keygenerator.class", javaClientKeyGenerator(keyGen));
    }
    props.putAll(extra);
    return props;
  }

  private static List<HoodieRecord<HoodieRecordPayload>> records(AvroJson.Batch batch, BaseKeyGenerator keyGenerator,
      String payloadClass, String orderingField) {
    List<HoodieRecord<HoodieRecordPayload>> out = new ArrayList<>(batch.records().size());
    for (GenericRecord record : batch.records()) {
      Comparable<?> ordering = orderingField == null ? 0
          : (Comparable<?>) HoodieAvroUtils.getNestedFieldVal(record, orderingField, false, false);
      HoodieRecordPayload payload = HoodieRecordUtils.loadPayload(payloadClass, record, ordering);
      out.add(new HoodieAvroRecord<>(keyGenerator.getKey(record), payload));
    }
    return out;
  }

  private static List<HoodieKey> keys(AvroJson.Batch batch, BaseKeyGenerator keyGenerator) {
    List<HoodieKey> out = new ArrayList<>(batch.records().size());
    for (GenericRecord record : batch.records()) {
      out.add(keyGenerator.getKey(record));
    }
    return out;
  }
}
