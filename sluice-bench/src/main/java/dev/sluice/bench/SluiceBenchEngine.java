package dev.sluice.bench;

import dev.sluice.api.Lookup;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.Tables;
import dev.sluice.bench.data.BenchRecords;
import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.steps.Engine;
import dev.sluice.api.TableCompaction;
import dev.sluice.api.Config;
import dev.sluice.api.MergeMode;
import dev.sluice.api.QueryType;
import dev.sluice.api.TableType;
import dev.sluice.api.CloseableIterator;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;

/**
 * Sluice as a benchmark {@link Engine}, through its public API only ({@code Tables}, {@code Table}, {@code Lookup})
 * and with the options the Hudi side gets: BLOOM index, snappy, the same small-file limit, file and row-group sizes
 * and parallelism (Sluice's scans also read file slices on that many threads), no combining of inserts.
 */
final class SluiceBenchEngine implements Engine {
  private final Config config;
  /** Threads of a scan: the bench's parallelism, as writes get (Hudi's Java readers read one slice at a time). */
  private final int readThreads;
  /** The Hudi table version new tables are created at (the bench's --table-version). */
  private final int tableVersion;

  SluiceBenchEngine(StepArgs args) {
    this.readThreads = args.getInt("parallelism");
    this.tableVersion = Integer.parseInt(args.find("table-version").orElse("6"));
    Map<String, String> m = new LinkedHashMap<>();
    // --index: the scale workload's tagging index (BLOOM elsewhere); RECORD_INDEX lives in the metadata table
    String index = args.find("index").orElse("BLOOM");
    m.put("hoodie.index.type", index);
    m.put("hoodie.parquet.compression.codec", "snappy");
    m.put("hoodie.parquet.small.file.limit", args.get("small-file-limit"));
    m.put("hoodie.parquet.max.file.size", args.get("max-file-size"));
    m.put("hoodie.parquet.block.size", args.get("max-file-size"));
    m.put("hoodie.parquet.page.size", "1048576");
    // --log-format: both engines write MoR log data blocks in the same format
    m.put("hoodie.logfile.data.block.format", args.find("log-format").orElse("avro"));
    m.put("sluice.write.parallelism", args.get("parallelism"));
    // --metadata-table: keep Hudi's metadata table (built by the first write), as the Hudi side does
    m.put("hoodie.metadata.enable", args.find("metadata-table").orElse("false"));
    if (index.equals("RECORD_INDEX")) {
      m.put("hoodie.metadata.enable", "true");
      m.put("hoodie.metadata.record.index.enable", "true");
    }
    m.put("hoodie.combine.before.insert", "false");
    m.put("hoodie.combine.before.upsert", "true");
    // the inputs are on the heap already (generated before the clock starts): spilling the prepared batch saves
    // nothing here, so both engines may hold half the heap before they spill (Hudi's merge handle, Sluice's write)
    m.put("hoodie.memory.merge.max.size", Long.toString(Runtime.getRuntime().maxMemory() / 2));
    this.config = Config.of(m);
  }

  @Override
  public String name() {
    return "sluice";
  }

  @Override
  public void create(Path table, boolean mergeOnRead) {
    Tables.create(table.toString(), TableSpec.builder("bench")
        .type(mergeOnRead ? TableType.MERGE_ON_READ : TableType.COPY_ON_WRITE)
        .recordKey(BenchRecords.KEY).precombine(BenchRecords.ORDERING).partitionBy(BenchRecords.PARTITION)
        .schema(BenchRecords.SCHEMA).mergeMode(MergeMode.EVENT_TIME_ORDERING).tableVersion(tableVersion).build(), config);
  }

  @Override
  public void write(Path table, Op op, List<GenericRecord> records) {
    Table t = Tables.open(table.toString(), config);
    switch (op) {
      case BULK_INSERT -> t.bulkInsert(records.iterator());
      case INSERT -> t.insert(records.iterator());
      case UPSERT -> t.upsert(records.iterator());
      case DELETE -> t.delete(records.iterator());
      default -> throw new IllegalStateException(op.name());
    }
  }

  /** Streams the chunk into one bulk insert: Sluice takes an iterator, so the records are never held as a list. */
  @Override
  public void load(Path table, Iterator<GenericRecord> records) {
    Tables.open(table.toString(), config).bulkInsert(records);
  }

  @Override
  public ReadResult read(Path table, boolean snapshot) {
    Table t = Tables.open(table.toString(), config);
    long rows = 0;
    long tsSum = 0;
    int tsPos = -1;
    try (CloseableIterator<GenericRecord> it = t.newScan().withMetaColumns(true)
        .queryType(snapshot ? QueryType.SNAPSHOT : QueryType.READ_OPTIMIZED).parallelism(readThreads).open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        if (tsPos < 0) {
          tsPos = r.getSchema().getField(BenchRecords.ORDERING).pos();
        }
        tsSum += (Long) r.get(tsPos);
        rows++;
      }
    }
    return new ReadResult(rows, tsSum);
  }

  /** Compacts every file group with log files: schedules a plan now (whatever the trigger says) and runs it. */
  @Override
  public boolean compact(Path table) {
    TableCompaction compaction = Tables.open(table.toString(), config).compaction();
    compaction.scheduleNow().ifPresent(compaction::run);
    return true;
  }

  @Override
  public KeyLookup openLookup(Path table) {
    Lookup lookup = Lookup.of(Tables.open(table.toString(), config));
    return new KeyLookup() {
      @Override
      public boolean find(String key, String partition) {
        return lookup.get(key, partition).map(r -> r.get(BenchRecords.ORDERING) != null).orElse(false);
      }

      @Override
      public long indexFilesOpened() {
        return lookup.indexFilesOpened();
      }

      @Override
      public long dataFilesOpened() {
        return lookup.dataFilesOpened();
      }

      @Override
      public void close() {
        // a Lookup holds no open files
      }
    };
  }
}
