package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.avro.generic.GenericRecord;
import org.apache.hudi.avro.HoodieAvroUtils;
import org.apache.hudi.client.HoodieJavaWriteClient;
import org.apache.hudi.client.WriteStatus;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.common.model.HoodieAvroRecord;
import org.apache.hudi.common.model.HoodieKey;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieRecordPayload;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.util.HoodieRecordUtils;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.keygen.BaseKeyGenerator;

/**
 * {@code write}: one commit through {@link HoodieJavaWriteClient} with a BLOOM index; prints the instant time.
 * {@code --op compact} schedules and runs a compaction instead (Merge-on-Read) and prints its instant.
 *
 * <p>Pitfall (Hudi 0.15.0 Java client): writing with {@code hoodie.metadata.enable=false} to a table that already
 * has a metadata table completes the commit but then fails in archival, and leaves the metadata table in place
 * and stale. Keep the metadata setting of a table constant across its writes.
 */
final class WriteCommand {

  private WriteCommand() {
  }

  static void run(Args args, PrintStream out) throws IOException {
    String table = args.required("table");
    String op = args.required("op");
    AvroJson.Batch batch = AvroJson.readBatch(Path.of(args.required("input")));
    Map<String, String> userConf = args.conf();

    HoodieTableMetaClient metaClient = HudiEnv.metaClient(table, userConf);
    HoodieTableConfig tableConfig = metaClient.getTableConfig();
    Properties props = writeProps(tableConfig, userConf);
    BaseKeyGenerator keyGenerator = HudiEnv.keyGenerator(tableConfig, userConf);
    String payloadClass = props.getProperty(HoodieWriteConfig.WRITE_PAYLOAD_CLASS_NAME.key());
    String orderingField = tableConfig.getPreCombineField();

    HoodieWriteConfig config = HoodieWriteConfig.newBuilder()
        .withPath(table)
        .forTable(tableConfig.getTableName())
        .withSchema(batch.schema().toString())
        .withProperties(props)
        .build();

    try (HoodieJavaWriteClient<HoodieRecordPayload> client =
             new HoodieJavaWriteClient<>(new HoodieJavaEngineContext(HudiEnv.storageConf(userConf)), config)) {
      if (op.equals("compact")) {
        // schedule and run a compaction of the MoR table's file slices (the input only gives the schema)
        Option<String> compaction = client.scheduleCompaction(Option.empty());
        if (!compaction.isPresent()) {
          throw new IOException("Hudi scheduled no compaction on " + table);
        }
        List<WriteStatus> written = client.compact(compaction.get()).getWriteStatuses();
        long failed = written.stream().mapToLong(WriteStatus::getTotalErrorRecords).sum();
        if (failed > 0) {
          throw new IOException("compaction " + compaction.get() + " reported " + failed + " error records");
        }
        out.println(compaction.get());
        return;
      }
      String instant = client.startCommit();
      List<WriteStatus> statuses;
      switch (op) {
        case "insert":
          statuses = client.insert(records(batch, keyGenerator, payloadClass, orderingField), instant);
          break;
        case "upsert":
          statuses = client.upsert(records(batch, keyGenerator, payloadClass, orderingField), instant);
          break;
        case "bulk_insert":
          statuses = client.bulkInsert(records(batch, keyGenerator, payloadClass, orderingField), instant);
          break;
        case "delete":
          statuses = client.delete(keys(batch, keyGenerator), instant);
          break;
        default:
          throw new Args.UsageException("unknown --op " + op + " (insert|upsert|delete|bulk_insert|compact)");
      }
      long errors = statuses.stream().mapToLong(WriteStatus::getTotalErrorRecords).sum();
      if (errors > 0) {
        throw new IOException("write " + instant + " reported " + errors + " error records");
      }
      out.println(instant);
    }
  }

  /** Writer properties: the oracle's defaults, the table's key/payload settings, then the user's --conf. */
  static Properties writeProps(HoodieTableConfig tableConfig, Map<String, String> userConf) {
    Properties props = new Properties();
    props.putAll(HudiEnv.keyProps(tableConfig));
    props.setProperty("hoodie.index.type", "BLOOM");
    props.setProperty("hoodie.metadata.enable", "true");
    props.setProperty("hoodie.parquet.compression.codec", "snappy");
    // The embedded timeline server only serves views to executors; it changes nothing on disk.
    props.setProperty("hoodie.embed.timeline.server", "false");
    props.setProperty("hoodie.auto.commit", "true");
    String precombine = tableConfig.getPreCombineField();
    if (precombine != null) {
      props.setProperty("hoodie.datasource.write.precombine.field", precombine);
      props.setProperty("hoodie.payload.ordering.field", precombine);
    }
    String payload = HudiEnv.payloadClass(tableConfig);
    props.setProperty("hoodie.datasource.write.payload.class", payload);
    props.setProperty("hoodie.compaction.payload.class", payload);
    props.putAll(userConf);
    return props;
  }

  private static List<HoodieRecord<HoodieRecordPayload>> records(AvroJson.Batch batch, BaseKeyGenerator keyGenerator,
      String payloadClass, String orderingField) {
    List<HoodieRecord<HoodieRecordPayload>> out = new ArrayList<>(batch.records().size());
    for (GenericRecord record : batch.records()) {
      Comparable<?> ordering = orderingField == null ? 0
          : (Comparable<?>) HoodieAvroUtils.getNestedFieldVal(record, orderingField, false, false);
      HoodieRecordPayload payload = HoodieRecordUtils.loadPayload(payloadClass,
          new Object[] {record, ordering}, GenericRecord.class, Comparable.class);
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
