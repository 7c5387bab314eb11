package dev.sluice.oracle;

import dev.sluice.bench.data.BenchRecords;
import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.steps.Engine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hudi.client.HoodieJavaWriteClient;
import org.apache.hudi.client.WriteStatus;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.config.RecordMergeMode;
import org.apache.hudi.common.engine.HoodieLocalEngineContext;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.DefaultHoodieRecordPayload;
import org.apache.hudi.common.model.FileSlice;
import org.apache.hudi.common.model.HoodieAvroRecord;
import org.apache.hudi.common.model.HoodieKey;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieRecordPayload;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.TableSchemaResolver;
import org.apache.hudi.common.table.read.HoodieFileGroupReader;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.view.FileSystemViewManager;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.keygen.SimpleAvroKeyGenerator;
import org.apache.hudi.keygen.constant.KeyGeneratorOptions;
import org.apache.hudi.table.action.HoodieWriteMetadata;

/**
 * Apache Hudi 1.1.1's Java write client as a benchmark {@link Engine} on version 9 tables (1.1.1's default), set up
 * as hudi-oracle's 0.15.0 engine is for the same comparison: BLOOM index, metadata table as the bench's
 * {@code --metadata-table}, snappy, Sluice's small-file limit, file and row-group sizes and parallelism, globally
 * sorted bulk insert, event-time merging on {@code ts}; and what 1.1.1's Java client needs here (see
 * {@link WriteCommand}): no embedded timeline server, direct markers, an explicit commit of every write and
 * compaction. Reads go through 1.x's {@link HoodieFileGroupReader}, one file slice at a time, as its engines read.
 * Point lookups (W5) are not run on this engine.
 */
final class Hudi1BenchEngine implements Engine {
  private static final String PAYLOAD = DefaultHoodieRecordPayload.class.getName();
  private static final Map<String, String> NO_CONF = Map.of();

  private final long smallFileLimit;
  private final long maxFileSize;
  private final int parallelism;
  private final String logFormat;
  private final String metadataTable;

  Hudi1BenchEngine(StepArgs args) {
    this.logFormat = args.find("log-format").orElse("avro");
    this.metadataTable = args.find("metadata-table").orElse("false");
    this.smallFileLimit = args.getLong("small-file-limit");
    this.maxFileSize = args.getLong("max-file-size");
    this.parallelism = args.getInt("parallelism");
  }

  @Override
  public String name() {
    return "hudi1";
  }

  @Override
  public void create(Path table, boolean mergeOnRead) {
    try {
      HoodieTableMetaClient.newTableBuilder()
          .setTableType(mergeOnRead ? HoodieTableType.MERGE_ON_READ : HoodieTableType.COPY_ON_WRITE)
          .setTableName("bench")
          .setTableVersion(9)
          .setRecordKeyFields(BenchRecords.KEY)
          .setOrderingFields(BenchRecords.ORDERING)
          .setPartitionFields(BenchRecords.PARTITION)
          .setKeyGeneratorClassProp(SimpleAvroKeyGenerator.class.getName())
          .setHiveStylePartitioningEnable(false)
          .setRecordMergeMode(RecordMergeMode.EVENT_TIME_ORDERING)
          .setBaseFileFormat("PARQUET")
          .setPopulateMetaFields(true)
          .setTableCreateSchema(BenchRecords.SCHEMA.toString())
          .initTable(Hudi1Env.storageConf(NO_CONF), table.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + table, e);
    }
  }

  private HoodieWriteConfig writeConfig(Path table) {
    Properties p = new Properties();
    p.setProperty(KeyGeneratorOptions.RECORDKEY_FIELD_NAME.key(), BenchRecords.KEY);
    p.setProperty(KeyGeneratorOptions.PARTITIONPATH_FIELD_NAME.key(), BenchRecords.PARTITION);
    p.setProperty("hoodie.datasource.write.keygenerator.class", SimpleAvroKeyGenerator.class.getName());
    p.setProperty("hoodie.table.ordering.fields", BenchRecords.ORDERING);
    p.setProperty("hoodie.datasource.write.payload.class", PAYLOAD);
    p.setProperty("hoodie.index.type", "BLOOM");
    p.setProperty("hoodie.metadata.enable", metadataTable);
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
    p.setProperty("hoodie.bulkinsert.sort.mode", "GLOBAL_SORT");
    p.setProperty("hoodie.combine.before.insert", "false");
    p.setProperty("hoodie.combine.before.upsert", "true");
    // as on the other two engines: half the heap before the merge handle's map spills
    p.setProperty("hoodie.memory.merge.max.size", Long.toString(Runtime.getRuntime().maxMemory() / 2));
    p.setProperty("hoodie.embed.timeline.server", "false");
    p.setProperty("hoodie.write.markers.type", "DIRECT");
    p.setProperty(HoodieWriteConfig.WRITE_TABLE_VERSION.key(), "9");
    p.setProperty("hoodie.compact.inline", "false");
    p.setProperty("hoodie.compact.inline.max.delta.commits", "1");
    return HoodieWriteConfig.newBuilder()
        .withPath(table.toString())
        .forTable("bench")
        .withSchema(BenchRecords.SCHEMA.toString())
        .withProperties(p)
        .build();
  }

  private static HoodieJavaEngineContext context() {
    return new HoodieJavaEngineContext(Hudi1Env.storageConf(NO_CONF));
  }

  @Override
  public void write(Path table, Op op, List<GenericRecord> records) {
    HoodieWriteConfig config = writeConfig(table);
    try (HoodieJavaWriteClient<HoodieRecordPayload> client = new HoodieJavaWriteClient<>(context(), config)) {
      SimpleAvroKeyGenerator keys = new SimpleAvroKeyGenerator(config.getProps());
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
      // 1.1.1's Java client leaves the write inflight until it is committed explicitly
      if (!client.commit(instant, statuses)) {
        throw new IllegalStateException("Hudi 1.1.1 did not commit " + instant + " on " + table);
      }
    }
  }

  private static void failOnErrors(List<WriteStatus> statuses, String instant) {
    long errors = statuses.stream().mapToLong(WriteStatus::getTotalErrorRecords).sum();
    if (errors > 0) {
      throw new IllegalStateException("Hudi 1.1.1 write " + instant + " reported " + errors + " error records");
    }
  }

  @Override
  public ReadResult read(Path table, boolean snapshot) {
    try {
      return readOrThrow(table, snapshot);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + table, e);
    }
  }

  /** Every latest merged file slice, through the file group reader (logs merged only for a snapshot on MoR). */
  private static ReadResult readOrThrow(Path table, boolean snapshot) throws IOException {
    HoodieTableMetaClient mc = Hudi1Env.metaClient(table.toString(), NO_CONF);
    HoodieTimeline timeline = mc.getCommitsAndCompactionTimeline().filterCompletedAndCompactionInstants();
    HoodieTimeline completed = mc.getCommitsTimeline().filterCompletedInstants();
    if (completed.empty()) {
      return new ReadResult(0, 0);
    }
    String latest = completed.lastInstant().get().requestedTime();
    Schema schema;
    try {
      schema = new TableSchemaResolver(mc).getTableAvroSchema();
    } catch (Exception e) {
      throw new IOException("cannot resolve the schema of " + table, e);
    }
    int tsPos = schema.getField(BenchRecords.ORDERING).pos();
    boolean mergeLogs = snapshot && mc.getTableType() == HoodieTableType.MERGE_ON_READ;
    HoodieLocalEngineContext local = Hudi1Env.localContext(NO_CONF);
    HoodieMetadataConfig noMetadata = HoodieMetadataConfig.newBuilder().enable(false).build();
    // ts sum, rows
    long[] sums = new long[2];
    try (HoodieTableFileSystemView view = FileSystemViewManager.createInMemoryFileSystemViewWithTimeline(local, mc,
        noMetadata, timeline)) {
      for (String partition : FSUtils.getAllPartitionPaths(local, mc, noMetadata)) {
        List<FileSlice> slices = view.getLatestMergedFileSlicesBeforeOrOn(partition, latest)
            .collect(Collectors.toList());
        for (FileSlice slice : slices) {
          SnapshotRead.forEachRow(mc, schema, slice, latest, mergeLogs, row -> {
            sums[0] += (Long) row.get(tsPos);
            sums[1]++;
          });
        }
      }
    }
    return new ReadResult(sums[1], sums[0]);
  }

  @Override
  public boolean compact(Path table) {
    HoodieWriteConfig config = writeConfig(table);
    try (HoodieJavaWriteClient<HoodieRecordPayload> client = new HoodieJavaWriteClient<>(context(), config)) {
      Option<String> instant = client.scheduleCompaction(Option.empty());
      if (!instant.isPresent()) {
        throw new IllegalStateException("Hudi 1.1.1 scheduled no compaction on " + table);
      }
      HoodieWriteMetadata<List<WriteStatus>> result = client.compact(instant.get());
      failOnErrors(result.getWriteStatuses(), instant.get());
      client.commitCompaction(instant.get(), result, Option.empty());
    }
    return true;
  }

  /** Not measured on this engine: the driver reports W5 as n/a for hudi1 and never asks. */
  @Override
  public KeyLookup openLookup(Path table) {
    throw new UnsupportedOperationException("the hudi1 bench engine runs no point lookups (W5)");
  }
}
