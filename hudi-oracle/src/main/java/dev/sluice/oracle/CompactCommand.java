package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.avro.Schema;
import org.apache.hudi.client.HoodieJavaWriteClient;
import org.apache.hudi.client.WriteStatus;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.common.model.HoodieRecordPayload;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.TableSchemaResolver;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;

/**
 * {@code compact --table PATH (--schedule | --run INSTANT) [--conf k=v ...]}: Hudi's compaction through
 * {@link HoodieJavaWriteClient}. {@code --schedule} plans one (the trigger defaults to one delta commit here) and
 * prints its instant, or {@code none}; {@code --run} executes and commits a pending one and prints its instant and
 * the number of files written.
 */
final class CompactCommand {

  private CompactCommand() {
  }

  static void run(Args args, PrintStream out) throws IOException {
    String table = args.required("table");
    Map<String, String> userConf = args.conf();
    HoodieTableMetaClient metaClient = HudiEnv.metaClient(table, userConf);
    HoodieTableConfig tableConfig = metaClient.getTableConfig();
    Schema schema;
    try {
      schema = new TableSchemaResolver(metaClient).getTableAvroSchema(false);
    } catch (Exception e) {
      throw new IOException("cannot resolve the schema of " + table, e);
    }
    Properties props = new Properties();
    props.setProperty("hoodie.compact.inline", "false");
    props.setProperty("hoodie.compact.inline.max.delta.commits", "1");
    props.putAll(WriteCommand.writeProps(tableConfig, userConf));
    HoodieWriteConfig config = HoodieWriteConfig.newBuilder()
        .withPath(table)
        .forTable(tableConfig.getTableName())
        .withSchema(schema.toString())
        .withProperties(props)
        .build();
    try (HoodieJavaWriteClient<HoodieRecordPayload> client =
             new HoodieJavaWriteClient<>(new HoodieJavaEngineContext(HudiEnv.storageConf(userConf)), config)) {
      if (args.flag("schedule")) {
        Option<String> instant = client.scheduleCompaction(Option.empty());
        out.println(instant.isPresent() ? instant.get() : "none");
        return;
      }
      String instant = args.required("run");
      List<WriteStatus> statuses = client.compact(instant).getWriteStatuses();
      long errors = statuses.stream().mapToLong(WriteStatus::getTotalErrorRecords).sum();
      if (errors > 0) {
        throw new IOException("compaction " + instant + " reported " + errors + " error records");
      }
      out.println(instant + " " + statuses.size());
    }
  }
}
