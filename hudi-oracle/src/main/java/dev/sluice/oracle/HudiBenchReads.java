package dev.sluice.oracle;

import dev.sluice.bench.data.BenchRecords;
import dev.sluice.bench.measure.Dirs;
import dev.sluice.bench.steps.Engine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.hudi.common.config.HoodieCommonConfig;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.FileSlice;
import org.apache.hudi.common.model.HoodieAvroIndexedRecord;
import org.apache.hudi.common.model.HoodieAvroRecordMerger;
import org.apache.hudi.common.model.HoodieBaseFile;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.TableSchemaResolver;
import org.apache.hudi.common.table.log.HoodieMergedLogRecordScanner;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;
import org.apache.hudi.common.util.ConfigUtils;
import org.apache.hudi.common.util.collection.ClosableIterator;
import org.apache.hudi.common.util.collection.ExternalSpillableMap;
import org.apache.hudi.common.util.collection.Pair;
import org.apache.hudi.io.storage.HoodieAvroFileReader;
import org.apache.hudi.io.storage.HoodieIOFactory;
import org.apache.hudi.storage.HoodieStorage;

/**
 * Full-table reads the way Hudi's own readers do them on a single JVM: the file-system view of completed
 * instants, the latest (merged) file slice of every file group, base files through Hudi's Avro Parquet reader,
 * log files through {@link HoodieMergedLogRecordScanner} (spillable map with Hudi's default 1 GB budget) merged
 * into base records with {@link HoodieAvroRecordMerger}, as the Hive/MR realtime reader does. Rows stream; each
 * is an Avro record whose {@code ts} is summed.
 */
final class HudiBenchReads {
  private HudiBenchReads() {
  }

  static Engine.ReadResult read(Path table, boolean snapshot) {
    try {
      return readOrThrow(table, snapshot);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + table, e);
    }
  }

  private static Engine.ReadResult readOrThrow(Path table, boolean snapshot) throws IOException {
    HoodieTableMetaClient mc = HudiEnv.metaClient(table.toString(), java.util.Map.of());
    HoodieTimeline timeline = mc.getCommitsAndCompactionTimeline().filterCompletedAndCompactionInstants();
    if (timeline.empty()) {
      return new Engine.ReadResult(0, 0);
    }
    String latest = timeline.lastInstant().get().getTimestamp();
    Schema schema;
    try {
      schema = new TableSchemaResolver(mc).getTableAvroSchema();
    } catch (Exception e) {
      throw new IOException("cannot resolve the schema of " + table, e);
    }
    int tsPos = schema.getField(BenchRecords.ORDERING).pos();
    HoodieStorage storage = mc.getStorage();
    HoodieMetadataConfig noMetadata = HoodieMetadataConfig.newBuilder().enable(false).build();
    List<String> partitions = FSUtils.getAllPartitionPaths(HudiEnv.localContext(java.util.Map.of()), storage, noMetadata,
        mc.getBasePathV2().toString());
    Counter counter = new Counter(tsPos);
    HoodieTableFileSystemView view = new HoodieTableFileSystemView(mc, timeline);
    try {
      for (String partition : partitions) {
        if (!snapshot) {
          for (HoodieBaseFile base : view.getLatestBaseFiles(partition).collect(Collectors.toList())) {
            readBase(storage, schema, base, counter, null);
          }
          continue;
        }
        for (FileSlice slice : view.getLatestMergedFileSlicesBeforeOrOn(partition, latest)
            .collect(Collectors.toList())) {
          if (slice.getLogFiles().findAny().isEmpty()) {
            if (slice.getBaseFile().isPresent()) {
              readBase(storage, schema, slice.getBaseFile().get(), counter, null);
            }
          } else {
            readMerged(mc, schema, slice, latest, counter);
          }
        }
      }
    } finally {
      view.close();
    }
    return new Engine.ReadResult(counter.rows, counter.tsSum);
  }

  /** Streams a base file; with a {@code merge} each row is merged with its log version first. */
  private static void readBase(HoodieStorage storage, Schema schema, HoodieBaseFile base, Counter counter,
      Merge merge) throws IOException {
    try (HoodieAvroFileReader reader = (HoodieAvroFileReader) HoodieIOFactory.getIOFactory(storage)
        .getReaderFactory(HoodieRecord.HoodieRecordType.AVRO)
        .getFileReader(ConfigUtils.DEFAULT_HUDI_CONFIG_FOR_READER, base.getStoragePath());
         ClosableIterator<IndexedRecord> rows = reader.getIndexedRecordIterator(schema, schema)) {
      while (rows.hasNext()) {
        IndexedRecord row = rows.next();
        if (merge == null) {
          counter.add(row);
        } else {
          merge.base(row);
        }
      }
    }
  }

  private static void readMerged(HoodieTableMetaClient mc, Schema schema, FileSlice slice, String latest,
      Counter counter) throws IOException {
    List<String> logs = slice.getLogFiles().map(l -> l.getPath().toString()).collect(Collectors.toList());
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.payload.ordering.field", BenchRecords.ORDERING);
    props.setProperty("hoodie.datasource.write.precombine.field", BenchRecords.ORDERING);
    Path spill = Files.createTempDirectory("hudi-bench-spill");
    try (HoodieMergedLogRecordScanner scanner = HoodieMergedLogRecordScanner.newBuilder()
        .withStorage(mc.getStorage())
        .withBasePath(mc.getBasePathV2().toString())
        .withLogFilePaths(logs)
        .withReaderSchema(schema)
        .withLatestInstantTime(latest)
        .withMaxMemorySizeInBytes(HoodieCommonConfig.DEFAULT_MAX_MEMORY_FOR_SPILLABLE_MAP_IN_BYTES)
        .withReverseReader(false)
        .withBufferSize(HoodieCommonConfig.MAX_DFS_STREAM_BUFFER_SIZE.defaultValue())
        .withSpillableMapBasePath(spill.toString())
        .withDiskMapType(ExternalSpillableMap.DiskMapType.BITCASK)
        .withBitCaskDiskMapCompressionEnabled(true)
        .withPartition(slice.getPartitionPath())
        .withTableMetaClient(mc)
        .withRecordMerger(HoodieAvroRecordMerger.INSTANCE)
        .build()) {
      Map<String, HoodieRecord> logRecords = scanner.getRecords();
      Merge merge = new Merge(schema, logRecords, props, counter);
      if (slice.getBaseFile().isPresent()) {
        readBase(mc.getStorage(), schema, slice.getBaseFile().get(), counter, merge);
      }
      for (Map.Entry<String, HoodieRecord> e : logRecords.entrySet()) {
        if (!merge.merged.contains(e.getKey())) {
          org.apache.hudi.common.util.Option<HoodieAvroIndexedRecord> insert = e.getValue().toIndexedRecord(schema, props);
          if (insert.isPresent()) {
            counter.add(insert.get().getData());
          }
        }
      }
    } finally {
      Dirs.delete(spill);
    }
  }

  /** Merges base rows with their log versions by record key. */
  private static final class Merge {
    private final Schema schema;
    private final Map<String, HoodieRecord> logRecords;
    private final TypedProperties props;
    private final Counter counter;
    private final Set<String> merged = new HashSet<>();

    Merge(Schema schema, Map<String, HoodieRecord> logRecords, TypedProperties props, Counter counter) {
      this.schema = schema;
      this.logRecords = logRecords;
      this.props = props;
      this.counter = counter;
    }

    void base(IndexedRecord row) throws IOException {
      String key = row.get(HoodieRecord.RECORD_KEY_META_FIELD_ORD).toString();
      HoodieRecord log = logRecords.get(key);
      if (log == null) {
        counter.add(row);
        return;
      }
      merged.add(key);
      org.apache.hudi.common.util.Option<Pair<HoodieRecord, Schema>> out = HoodieAvroRecordMerger.INSTANCE.merge(
          new HoodieAvroIndexedRecord(row), schema, log, schema, props);
      if (out.isPresent()) {
        counter.add((IndexedRecord) out.get().getLeft().getData());
      }
    }
  }

  /** Rows and the sum of their ordering values. */
  private static final class Counter {
    private final int tsPos;
    private long rows;
    private long tsSum;

    Counter(int tsPos) {
      this.tsPos = tsPos;
    }

    void add(IndexedRecord row) {
      rows++;
      Schema s = row.getSchema();
      int pos = s.getFields().size() > tsPos && s.getFields().get(tsPos).name().equals(BenchRecords.ORDERING)
          ? tsPos : s.getField(BenchRecords.ORDERING).pos();
      tsSum += ((Number) row.get(pos)).longValue();
    }
  }
}
