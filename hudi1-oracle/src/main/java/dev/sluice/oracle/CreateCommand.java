package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import org.apache.avro.Schema;
import org.apache.hudi.common.config.RecordMergeMode;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.keygen.ComplexAvroKeyGenerator;
import org.apache.hudi.keygen.NonpartitionedAvroKeyGenerator;
import org.apache.hudi.keygen.SimpleAvroKeyGenerator;

/**
 * {@code create}: initialises an empty table with Hudi 1.1.1's table builder at table version 9 (the release's
 * default) or 8 ({@code --table-version}), as the Java client's users create one. The merge mode defaults to
 * event-time ordering when an ordering field is given, else commit-time ordering (Hudi's own inference).
 */
final class CreateCommand {

  private CreateCommand() {
  }

  static void run(Args args, PrintStream out) throws IOException {
    String table = args.required("table");
    HoodieTableType type = HoodieTableType.valueOf(args.required("type"));
    List<String> recordKeys = args.list("record-key");
    if (recordKeys.isEmpty()) {
      throw new Args.UsageException("--record-key needs at least one field");
    }
    int version = Integer.parseInt(args.optional("table-version").orElse("9"));
    if (version != 8 && version != 9) {
      throw new Args.UsageException("--table-version must be 8 or 9 (this oracle creates Hudi 1.x tables)");
    }
    List<String> partitionFields = args.list("partition-fields");
    Schema schema = new Schema.Parser().parse(Path.of(args.required("schema")).toFile());
    java.util.Optional<String> ordering = args.optional("precombine");
    RecordMergeMode mode = RecordMergeMode.valueOf(args.optional("merge-mode")
        .orElse(ordering.isPresent() ? "EVENT_TIME_ORDERING" : "COMMIT_TIME_ORDERING"));

    HoodieTableMetaClient.TableBuilder builder = HoodieTableMetaClient.newTableBuilder()
        .setTableType(type)
        .setTableName(args.required("name"))
        .setTableVersion(version)
        .setRecordKeyFields(String.join(",", recordKeys))
        .setKeyGeneratorClassProp(keyGeneratorClass(recordKeys, partitionFields))
        .setHiveStylePartitioningEnable(args.flag("hive-style"))
        .setRecordMergeMode(mode)
        .setBaseFileFormat("PARQUET")
        .setPopulateMetaFields(true)
        .setTableCreateSchema(schema.toString());
    ordering.ifPresent(builder::setOrderingFields);
    if (!partitionFields.isEmpty()) {
      builder.setPartitionFields(String.join(",", partitionFields));
    }
    HoodieTableMetaClient metaClient = builder.initTable(Hudi1Env.storageConf(java.util.Map.of()), table);
    out.println(metaClient.getBasePath());
  }

  /** The Avro key generator a Java-client writer uses for this combination of fields. */
  static String keyGeneratorClass(List<String> recordKeys, List<String> partitionFields) {
    if (partitionFields.isEmpty()) {
      return NonpartitionedAvroKeyGenerator.class.getName();
    }
    if (recordKeys.size() == 1 && partitionFields.size() == 1) {
      return SimpleAvroKeyGenerator.class.getName();
    }
    return ComplexAvroKeyGenerator.class.getName();
  }
}
