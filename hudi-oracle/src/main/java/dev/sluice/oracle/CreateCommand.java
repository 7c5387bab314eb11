package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import org.apache.avro.Schema;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.keygen.ComplexAvroKeyGenerator;
import org.apache.hudi.keygen.NonpartitionedAvroKeyGenerator;
import org.apache.hudi.keygen.SimpleAvroKeyGenerator;

/**
 * {@code create}: initialises an empty table with Hudi's meta client property builder.
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
    List<String> partitionFields = args.list("partition-fields");
    Schema schema = new Schema.Parser().parse(Path.of(args.required("schema")).toFile());

    HoodieTableMetaClient.PropertyBuilder builder = HoodieTableMetaClient.withPropertyBuilder()
        .setTableType(type)
        .setTableName(args.required("name"))
        .setRecordKeyFields(String.join(",", recordKeys))
        .setPreCombineField(args.required("precombine"))
        .setKeyGeneratorClassProp(keyGeneratorClass(recordKeys, partitionFields))
        .setHiveStylePartitioningEnable(args.flag("hive-style"))
        .setBaseFileFormat("PARQUET")
        .setPopulateMetaFields(true)
        .setTableCreateSchema(schema.toString());
    if (!partitionFields.isEmpty()) {
      builder.setPartitionFields(String.join(",", partitionFields));
    }
    // Hudi stores a payload class in hoodie.properties for MoR tables only.
    args.optional("payload").ifPresent(builder::setPayloadClassName);
    HoodieTableMetaClient metaClient = builder.initTable(HudiEnv.storageConf(), table);
    out.println(metaClient.getBasePathV2());
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
