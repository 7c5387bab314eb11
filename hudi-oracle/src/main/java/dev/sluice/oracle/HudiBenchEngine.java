package dev.sluice.oracle;

import dev.sluice.bench.data.BenchRecords;
import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.steps.Engine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.avro.generic.GenericRecord;
import org.apache.hudi.client.HoodieJavaWriteClient;
import org.apache.hudi.client.WriteStatus;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.model.DefaultHoodieRecordPayload;
import org.apache.hudi.common.model.HoodieAvroRecord;
import org.apache.hudi.common.model.HoodieKey;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieRecordPayload;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.keygen.SimpleAvroKeyGenerator;
import org.apache.hudi.keygen.constant.KeyGeneratorOptions;

/**
 * Apache Hudi 0.15.0's Java write client as a benchmark {@link Engine}, configured as a careful Hudi user would
 * for this comparison: BLOOM index, metadata table off (on with the bench's --metadata-table), snappy (Hudi's
 * default is gzip), Sluice's small-file limit, file and row-group sizes and parallelism, bulk insert globally
 * sorted (as Sluice's is, which keeps key ranges narrow for the bloom index), event-time merging
 * ({@code DefaultHoodieRecordPayload}, ordering field {@code ts}), direct markers, no embedded timeline server.
 * Records are built the way a Java-client user builds them: key generator plus payload per record, inside the timed
 * call.
 */
final class HudiBenchEngine implements Engine {
  private static final String PAYLOAD = DefaultHoodieRecordPayload.class.getName();

  private final long smallFileLimit;
  private final long maxFileSize;
  private final int parallelism;
  /** MoR log data block format, avro or parquet (the bench's --log-format, as on the Sluice side). */
  private final String logFormat;
  /** The bench's --metadata-table: keep Hudi's metadata table (its default), as on the Sluice side. */
  private final String metadataTable;
  /** The bench's --index (BLOOM unless the scale workload asks for SIMPLE or another of Hudi's index types). */
  private final String index;

  HudiBenchEngine(StepArgs args) {
    this.index = args.find("index").orElse("BLOOM");
    this.logFormat = args.find("log-format").orElse("avro");
    this.metadataTable = args.find("metadata-table").orElse("false");
    this.smallFileLimit = args.getLong("small-file-limit");
    this.maxFileSize = args.getLong("max-file-size");
    this.parallelism = args.getInt("parallelism");
  }

  @Override
  public String name() {
    return "hudi";
  }

  @Override
  public void create(Path table, boolean mergeOnRead) {
    try {
      HoodieTableMetaClient.withPropertyBuilder()
          .setTableType(mergeOnRead ? HoodieTableType.MERGE_ON_READ : HoodieTableType.COPY_ON_WRITE)
          .setTableName("bench")
          .setRecordKeyFields(BenchRecords.KEY)
          .setPreCombineField(BenchRecords.ORDERING)
          .setPartitionFields(BenchRecords.PARTITION)
          .setKeyGeneratorClassProp(SimpleAvroKeyGenerator.class.getName())
          .setHiveStylePartitioningEnable(false)
          .setBaseFileFormat("PARQUET")
          .setPopulateMetaFields(true)
          .setPayloadClassName(PAYLOAD)
          .setTableCreateSchema(BenchRecords.SCHEMA.toString())
          .initTable(HudiEnv.storageConf(), table.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + table, e);
    }
  }

  /** The writer configuration of every step. */
  HoodieWriteConfig writeConfig(Path table) {
    Properties p = new Properties();
    p.setProperty(KeyGeneratorOptions.RECORDKEY_FIELD_NAME.key(), BenchRecords.KEY);
    p.setProperty(KeyGeneratorOptions.PARTITIONPATH_FIELD_NAME.key(), BenchRecords.PARTITION);
    p.setProperty("hoodie.datasource.write.keygenerator.class", SimpleAvroKeyGenerator.class.getName());
    p.setProperty("hoodie.datasource.write.precombine.field", BenchRecords.ORDERING);
    p.setProperty("hoodie.payload.ordering.field", BenchRecords.ORDERING);
    p.setProperty("hoodie.datasource.write.payload.class", PAYLOAD);
    p.setProperty("hoodie.compaction.payload.class", PAYLOAD);
    p.setProperty("hoodie.index.type", index);
    p.setProperty("hoodie.metadata.enable", metadataTable);
    if (index.equals("RECORD_INDEX")) {
      p.setProperty("hoodie.metadata.enable", "true");
      p.setProperty("hoodie.metadata.record.index.enable", "true");
    }
    p.setProperty("hoodie.parquet.compression.codec", "snappy");
    p.setProperty("hoodie.parquet.small.file.limit", Long.toString(smallFileLimit));
    p.setProperty("hoodie.parquet.max.file.size", Long.toString(maxFileSize));
    p.setProperty("hoodie.parquet.block.size", Long.toString(maxFileSize));
    p.setProperty("hoodie.parquet.page.size", "1048576");
    p.setProperty("hoodie.logfile.data.block.format", logFormat);
    for (String op : List.of("insert", "upsert", "bulkinsert", "delete")) {
      p.setProperty("hoodie." + op + ".shuffle.parallelism", Integer.toString(parallelism));
    }
    p.setProperty("hoodie.bloom.index.parallelism", Integer.toString(parallelism));
    p.setProperty("hoodie.simple.index.parallelism", Integer.toString(parallelism));
    p.setProperty("hoodie.bulkinsert.sort.mode", "GLOBAL_SORT");
    p.setProperty("hoodie.combine.before.insert", "false");
    p.setProperty("hoodie.combine.before.upsert", "true");
    // as on the Sluice side: half the heap before the merge handle's map spills (the inputs are on the heap anyway)
    p.setProperty("hoodie.memory.merge.max.size", Long.toString(Runtime.getRuntime().maxMemory() / 2));
    p.setProperty("hoodie.embed.timeline.server", "false");
    p.setProperty("hoodie.write.markers.type", "DIRECT");
    p.setProperty("hoodie.auto.commit", "true");
    // compaction only when the compact step asks for it; it may then plan every file slice with logs
    p.setProperty("hoodie.compact.inline", "false");
    p.setProperty("hoodie.compact.inline.max.delta.commits", "1");
    return HoodieWriteConfig.newBuilder()
        .withPath(table.toString())
        .forTable("bench")
        .withSchema(BenchRecords.SCHEMA.toString())
        .withProperties(p)
        .build();
  }

  HoodieJavaEngineContext context() {
    return new HoodieJavaEngineContext(HudiEnv.storageConf());
  }

  @Override
  public void write(Path table, Op op, List<GenericRecord> records) {
    HoodieWriteConfig config = writeConfig(table);
    try (HoodieJavaWriteClient<HoodieRecordPayload> client = new HoodieJavaWriteClient<>(context(), config)) {
      SimpleAvroKeyGenerator keys = new SimpleAvroKeyGenerator(new TypedProperties(config.getProps()));
      String instant = client.startCommit();
      List<WriteStatus> statuses;
      if (op == Op.DELETE) {
        List<HoodieKey> toDelete = new ArrayList<>(records.size());
        for (GenericRecord r : records) {
          toDelete.add(keys.getKey(r));
        }
        statuses = client.delete(toDelete, instant);
      } else {
        List<HoodieRecord<HoodieRecordPayload>> in = new ArrayList<>(records.size());
        for (GenericRecord r : records) {
          in.add(new HoodieAvroRecord<>(keys.getKey(r),
              new DefaultHoodieRecordPayload(r, (Comparable<?>) r.get(BenchRecords.ORDERING))));
        }
        statuses = switch (op) {
          case BULK_INSERT -> client.bulkInsert(in, instant);
          case INSERT -> client.insert(in, instant);
          case UPSERT -> client.upsert(in, instant);
          default -> throw new IllegalStateException(op.name());
        };
      }
      failOnErrors(statuses, instant);
    }
  }

  private static void failOnErrors(List<WriteStatus> statuses, String instant) {
    long errors = statuses.stream().mapToLong(WriteStatus::getTotalErrorRecords).sum();
    if (errors > 0) {
      throw new IllegalStateException("Hudi write " + instant + " reported " + errors + " error records");
    }
  }

  @Override
  public ReadResult read(Path table, boolean snapshot) {
    return HudiBenchReads.read(table, snapshot);
  }

  @Override
  public boolean compact(Path table) {
    HoodieWriteConfig config = writeConfig(table);
    try (HoodieJavaWriteClient<HoodieRecordPayload> client = new HoodieJavaWriteClient<>(context(), config)) {
      Option<String> instant = client.scheduleCompaction(Option.empty());
      if (!instant.isPresent()) {
        throw new IllegalStateException("Hudi scheduled no compaction on " + table);
      }
      List<WriteStatus> statuses = client.compact(instant.get()).getWriteStatuses();
      failOnErrors(statuses, instant.get());
    }
    return true;
  }

  @Override
  public KeyLookup openLookup(Path table) {
    return new HudiBenchLookup(writeConfig(table), context());
  }
}
