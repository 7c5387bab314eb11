package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.hudi.avro.HoodieAvroReaderContext;
import org.apache.hudi.avro.HoodieAvroUtils;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.engine.HoodieLocalEngineContext;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.FileSlice;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.TableSchemaResolver;
import org.apache.hudi.common.table.read.HoodieFileGroupReader;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.view.FileSystemViewManager;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;
import org.apache.hudi.common.util.collection.ClosableIterator;

/**
 * {@code read}: a snapshot, read-optimized or time-travel query as Hudi 1.x's engines run it: the completed commits
 * and the compaction timeline (before or on the query instant), the latest merged file slice of every file group,
 * each slice read by {@link HoodieFileGroupReader} (base file merged with its log files by the table's merge
 * settings; base file only for read-optimized). Output as the 0.15 oracle's {@code read}: a schema line, then the
 * rows sorted by record key and partition.
 */
final class SnapshotRead {

  private SnapshotRead() {
  }

  static void run(Args args, PrintStream out) throws IOException {
    String table = args.required("table");
    String query = args.optional("query").orElse("snapshot");
    if (!query.equals("snapshot") && !query.equals("read_optimized")) {
      throw new Args.UsageException("unknown --query " + query + " (snapshot|read_optimized)");
    }
    Optional<String> asOf = args.optional("as-of");
    boolean useMetadata = args.flag("use-metadata");
    HoodieTableMetaClient metaClient = Hudi1Env.metaClient(table, args.conf());
    HoodieTimeline timeline = metaClient.getCommitsAndCompactionTimeline().filterCompletedAndCompactionInstants();
    HoodieTimeline completed = metaClient.getCommitsTimeline().filterCompletedInstants();
    if (asOf.isPresent()) {
      timeline = timeline.findInstantsBeforeOrEquals(asOf.get());
      completed = completed.findInstantsBeforeOrEquals(asOf.get());
    }
    Optional<String> queryInstant = asOf.isPresent() ? asOf
        : Optional.ofNullable(completed.lastInstant().map(HoodieInstant::requestedTime).orElse(null));
    Schema schema = schema(metaClient, completed, asOf);
    out.println("{\"schema\": " + schema + "}");
    if (completed.empty() || queryInstant.isEmpty()) {
      return;
    }
    boolean mergeLogs = metaClient.getTableType() == HoodieTableType.MERGE_ON_READ && query.equals("snapshot");
    HoodieLocalEngineContext context = Hudi1Env.localContext(args.conf());
    HoodieMetadataConfig metadataConfig = HoodieMetadataConfig.newBuilder().enable(useMetadata).build();
    List<GenericRecord> rows = new ArrayList<>();
    try (HoodieTableFileSystemView view = FileSystemViewManager.createInMemoryFileSystemViewWithTimeline(context,
        metaClient, metadataConfig, timeline)) {
      List<String> partitions = FSUtils.getAllPartitionPaths(context, metaClient, metadataConfig);
      for (String partition : partitions.stream().sorted().collect(Collectors.toList())) {
        List<FileSlice> slices = view.getLatestMergedFileSlicesBeforeOrOn(partition, queryInstant.get())
            .collect(Collectors.toList());
        for (FileSlice slice : slices) {
          rows.addAll(readSlice(metaClient, schema, slice, queryInstant.get(), mergeLogs));
        }
      }
    }
    rows.sort(Comparator.comparing((GenericRecord r) -> field(r, HoodieRecord.RECORD_KEY_METADATA_FIELD))
        .thenComparing(r -> field(r, HoodieRecord.PARTITION_PATH_METADATA_FIELD)));
    for (GenericRecord row : rows) {
      out.println(AvroJson.encode(schema, row));
    }
  }

  private static Schema schema(HoodieTableMetaClient metaClient, HoodieTimeline completed, Optional<String> asOf)
      throws IOException {
    if (completed.empty()) {
      Schema create = metaClient.getTableConfig().getTableCreateSchema()
          .orElseThrow(() -> new IOException("table has no commits and no create schema"));
      return HoodieAvroUtils.addMetadataFields(create);
    }
    TableSchemaResolver resolver = new TableSchemaResolver(metaClient);
    try {
      return asOf.isPresent() ? resolver.getTableAvroSchema(completed.lastInstant().get().requestedTime())
          : resolver.getTableAvroSchema();
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      // the resolver declares Exception; what it throws besides I/O failures is a broken table
      throw new IOException("cannot resolve the table schema: " + e.getMessage(), e);
    }
  }

  private static List<GenericRecord> readSlice(HoodieTableMetaClient metaClient, Schema schema, FileSlice slice,
      String queryInstant, boolean mergeLogs) throws IOException {
    List<GenericRecord> out = new ArrayList<>();
    forEachRow(metaClient, schema, slice, queryInstant, mergeLogs, out::add);
    return out;
  }

  /**
   * Hands every row of {@code slice} as of {@code queryInstant} to {@code rows}, in {@code schema}: the base file
   * merged with the log files by Hudi's file group reader when {@code mergeLogs}, the base file alone otherwise
   * (shared with the benchmark's read).
   */
  static void forEachRow(HoodieTableMetaClient metaClient, Schema schema, FileSlice slice, String queryInstant,
      boolean mergeLogs, Consumer<GenericRecord> rows) throws IOException {
    TypedProperties props = new TypedProperties();
    HoodieAvroReaderContext context = new HoodieAvroReaderContext(metaClient.getStorageConf(),
        metaClient.getTableConfig(), org.apache.hudi.common.util.Option.empty(),
        org.apache.hudi.common.util.Option.empty(), props);
    try (HoodieFileGroupReader<IndexedRecord> reader = HoodieFileGroupReader.<IndexedRecord>newBuilder()
        .withReaderContext(context)
        .withHoodieTableMetaClient(metaClient)
        .withLatestCommitTime(queryInstant)
        .withPartitionPath(slice.getPartitionPath())
        .withBaseFileOption(slice.getBaseFile())
        .withLogFiles(mergeLogs ? slice.getLogFiles() : Stream.empty())
        .withDataSchema(schema)
        .withRequestedSchema(schema)
        .withProps(props)
        .build();
         ClosableIterator<IndexedRecord> records = reader.getClosableIterator()) {
      while (records.hasNext()) {
        rows.accept(conform(records.next(), schema));
      }
    }
  }

  private static GenericRecord conform(IndexedRecord record, Schema schema) {
    if (record instanceof GenericRecord && Objects.equals(record.getSchema(), schema)) {
      return (GenericRecord) record;
    }
    return HoodieAvroUtils.rewriteRecordWithNewSchema(record, schema);
  }

  private static String field(GenericRecord record, String name) {
    Object value = record.get(name);
    return value == null ? "" : value.toString();
  }
}
