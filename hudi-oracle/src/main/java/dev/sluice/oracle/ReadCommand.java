package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.hudi.avro.HoodieAvroUtils;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.engine.HoodieLocalEngineContext;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.FileSlice;
import org.apache.hudi.common.model.HoodieAvroIndexedRecord;
import org.apache.hudi.common.model.HoodieAvroRecordMerger;
import org.apache.hudi.common.model.HoodieBaseFile;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.TableSchemaResolver;
import org.apache.hudi.common.table.log.HoodieMergedLogRecordScanner;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.view.FileSystemViewManager;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;
import org.apache.hudi.common.util.ConfigUtils;
import org.apache.hudi.common.util.collection.ClosableIterator;
import org.apache.hudi.common.util.collection.ExternalSpillableMap;
import org.apache.hudi.common.util.collection.Pair;
import org.apache.hudi.io.storage.HoodieAvroFileReader;
import org.apache.hudi.io.storage.HoodieIOFactory;
import org.apache.hudi.storage.HoodieStorage;
import org.apache.hudi.storage.StoragePath;

/**
 * {@code read}: a snapshot / read-optimized / time-travel read done the way Hudi's file index does it
 * (completed commits + compaction timeline, latest merged file slices before or on the query instant).
 */
final class ReadCommand {

  private static final long LOG_SCAN_MEMORY = 256L * 1024 * 1024;

  private ReadCommand() {
  }

  static void run(Args args, PrintStream out) throws IOException {
    String table = args.required("table");
    String query = args.optional("query").orElse("snapshot");
    if (!query.equals("snapshot") && !query.equals("read_optimized")) {
      throw new Args.UsageException("unknown --query " + query + " (snapshot|read_optimized)");
    }
    Optional<String> asOf = args.optional("as-of");
    boolean useMetadata = args.flag("use-metadata");

    HoodieTableMetaClient metaClient = HudiEnv.metaClient(table);
    HoodieTimeline timeline = metaClient.getCommitsAndCompactionTimeline().filterCompletedAndCompactionInstants();
    HoodieTimeline completed = metaClient.getCommitsTimeline().filterCompletedInstants();
    if (asOf.isPresent()) {
      timeline = timeline.findInstantsBeforeOrEquals(asOf.get());
      completed = completed.findInstantsBeforeOrEquals(asOf.get());
    }
    Optional<String> queryInstant = asOf.isPresent() ? asOf
        : Optional.ofNullable(timeline.lastInstant().map(HoodieInstant::getTimestamp).orElse(null));
    Schema schema = tableSchema(metaClient, completed, asOf);
    out.println("{\"schema\": " + schema.toString() + "}");
    if (completed.empty() || queryInstant.isEmpty()) {
      return;
    }

    boolean mergeLogs = metaClient.getTableType() == HoodieTableType.MERGE_ON_READ && query.equals("snapshot");
    List<GenericRecord> rows = new ArrayList<>();
    HoodieLocalEngineContext context = HudiEnv.localContext();
    HoodieMetadataConfig metadataConfig = HoodieMetadataConfig.newBuilder().enable(useMetadata).build();
    HoodieTableFileSystemView view = fileSystemView(context, metaClient, metadataConfig, timeline, useMetadata);
    try {
      List<String> partitions = FSUtils.getAllPartitionPaths(context, metaClient.getStorage(), metadataConfig,
          metaClient.getBasePathV2().toString());
      for (String partition : partitions.stream().sorted().collect(Collectors.toList())) {
        List<FileSlice> slices = view.getLatestMergedFileSlicesBeforeOrOn(partition, queryInstant.get())
            .collect(Collectors.toList());
        for (FileSlice slice : slices) {
          if (mergeLogs) {
            rows.addAll(readMerged(metaClient, schema, slice, queryInstant.get()));
          } else if (slice.getBaseFile().isPresent()) {
            rows.addAll(readBase(metaClient.getStorage(), schema, slice.getBaseFile().get()));
          }
        }
      }
    } finally {
      view.close();
    }
    rows.sort(Comparator.comparing((GenericRecord r) -> field(r, HoodieRecord.RECORD_KEY_METADATA_FIELD))
        .thenComparing(r -> field(r, HoodieRecord.PARTITION_PATH_METADATA_FIELD)));
    for (GenericRecord row : rows) {
      out.println(AvroJson.encode(schema, row));
    }
  }

  static HoodieTableFileSystemView fileSystemView(HoodieLocalEngineContext context, HoodieTableMetaClient metaClient,
      HoodieMetadataConfig metadataConfig, HoodieTimeline timeline, boolean useMetadata) {
    if (useMetadata) {
      return FileSystemViewManager.createInMemoryFileSystemViewWithTimeline(context, metaClient, metadataConfig, timeline);
    }
    return new HoodieTableFileSystemView(metaClient, timeline);
  }

  static Schema tableSchema(HoodieTableMetaClient metaClient, HoodieTimeline completed, Optional<String> asOf)
      throws IOException {
    TableSchemaResolver resolver = new TableSchemaResolver(metaClient);
    try {
      if (completed.empty()) {
        // No commit yet: the schema given at create time, with meta fields.
        Schema create = metaClient.getTableConfig().getTableCreateSchema()
            .orElseThrow(() -> new IOException("table has no commits and no create schema"));
        return HoodieAvroUtils.addMetadataFields(create);
      }
      return asOf.isPresent() ? resolver.getTableAvroSchema(completed.lastInstant().get().getTimestamp())
          : resolver.getTableAvroSchema();
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("cannot resolve the table schema: " + e.getMessage(), e);
    }
  }

  private static String field(GenericRecord record, String name) {
    Object value = record.get(name);
    return value == null ? "" : value.toString();
  }

  static List<GenericRecord> readBase(HoodieStorage storage, Schema schema, HoodieBaseFile baseFile) throws IOException {
    List<GenericRecord> out = new ArrayList<>();
    StoragePath path = baseFile.getStoragePath();
    try (HoodieAvroFileReader reader = (HoodieAvroFileReader) HoodieIOFactory.getIOFactory(storage)
        .getReaderFactory(HoodieRecord.HoodieRecordType.AVRO)
        .getFileReader(ConfigUtils.DEFAULT_HUDI_CONFIG_FOR_READER, path);
         ClosableIterator<IndexedRecord> records = reader.getIndexedRecordIterator(schema, schema)) {
      while (records.hasNext()) {
        out.add(conform(records.next(), schema));
      }
    }
    return out;
  }

  /** Base records merged with the slice's log records by key through the table's payload (Hudi's default merger). */
  static List<GenericRecord> readMerged(HoodieTableMetaClient metaClient, Schema schema, FileSlice slice,
      String queryInstant) throws IOException {
    // FileSlice lists log files newest first; Hudi's readers (Spark's MoR relation, the compactor) hand them to the
    // scanner oldest first, which decides which of two log versions of a key is the later one
    List<String> logPaths = slice.getLogFiles().sorted(HoodieLogFile.getLogFileComparator())
        .map(log -> log.getPath().toString()).collect(Collectors.toList());
    List<GenericRecord> base = slice.getBaseFile().isPresent()
        ? readBase(metaClient.getStorage(), schema, slice.getBaseFile().get()) : List.of();
    if (logPaths.isEmpty()) {
      return base;
    }
    TypedProperties props = mergeProps(metaClient);
    Path spill = Files.createTempDirectory("oracle-spill");
    List<GenericRecord> out = new ArrayList<>();
    try (HoodieMergedLogRecordScanner scanner = HoodieMergedLogRecordScanner.newBuilder()
        .withStorage(metaClient.getStorage())
        .withBasePath(metaClient.getBasePathV2().toString())
        .withLogFilePaths(logPaths)
        .withReaderSchema(schema)
        .withLatestInstantTime(queryInstant)
        .withMaxMemorySizeInBytes(LOG_SCAN_MEMORY)
        .withReverseReader(false)
        .withBufferSize(1024 * 1024)
        .withSpillableMapBasePath(spill.toString())
        .withDiskMapType(ExternalSpillableMap.DiskMapType.BITCASK)
        .withBitCaskDiskMapCompressionEnabled(true)
        .withPartition(slice.getPartitionPath())
        .withTableMetaClient(metaClient)
        .withRecordMerger(HoodieAvroRecordMerger.INSTANCE)
        .build()) {
      Map<String, HoodieRecord> logRecords = scanner.getRecords();
      Set<String> merged = new HashSet<>();
      for (GenericRecord baseRecord : base) {
        String key = field(baseRecord, HoodieRecord.RECORD_KEY_METADATA_FIELD);
        HoodieRecord logRecord = logRecords.get(key);
        if (logRecord == null) {
          out.add(baseRecord);
          continue;
        }
        merged.add(key);
        org.apache.hudi.common.util.Option<Pair<HoodieRecord, Schema>> result = HoodieAvroRecordMerger.INSTANCE.merge(
            new HoodieAvroIndexedRecord(baseRecord), schema, logRecord, schema, props);
        if (result.isPresent()) {
          out.add(conform((IndexedRecord) result.get().getLeft().getData(), schema));
        }
      }
      for (Map.Entry<String, HoodieRecord> entry : logRecords.entrySet()) {
        if (merged.contains(entry.getKey())) {
          continue;
        }
        org.apache.hudi.common.util.Option<HoodieAvroIndexedRecord> insert =
            entry.getValue().toIndexedRecord(schema, props);
        if (insert.isPresent()) {
          out.add(conform(insert.get().getData(), schema));
        }
      }
    } finally {
      deleteRecursively(spill);
    }
    return out;
  }

  private static TypedProperties mergeProps(HoodieTableMetaClient metaClient) {
    TypedProperties props = new TypedProperties();
    String precombine = metaClient.getTableConfig().getPreCombineField();
    if (precombine != null) {
      props.setProperty("hoodie.payload.ordering.field", precombine);
      props.setProperty("hoodie.datasource.write.precombine.field", precombine);
    }
    return props;
  }

  private static GenericRecord conform(IndexedRecord record, Schema schema) {
    if (record instanceof GenericRecord && Objects.equals(record.getSchema(), schema)) {
      return (GenericRecord) record;
    }
    return HoodieAvroUtils.rewriteRecordWithNewSchema(record, schema);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.deleteIfExists(p);
      }
    }
  }
}
