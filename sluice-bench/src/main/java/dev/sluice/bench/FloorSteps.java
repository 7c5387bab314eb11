package dev.sluice.bench;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.basefile.Footer;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.bench.data.BenchRecords;
import dev.sluice.bench.data.Workloads;
import dev.sluice.bench.measure.DirSnapshot;
import dev.sluice.bench.measure.Dirs;
import dev.sluice.bench.measure.HeapMeter;
import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.measure.StepReport;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.service.TableInternals;
import dev.sluice.internal.util.Parallel;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.avro.AvroReadSupport;
import org.apache.parquet.avro.AvroWriteSupport;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;

/**
 * The floors: the same data moved with plain parquet-avro / Avro and nothing else (no index, no merge, no
 * timeline, no bloom filters), on as many threads as the engines get. They bound from below what a table engine
 * can cost for a step.
 * <ul>
 *   <li>{@code floor-insert --out DIR --records N}: the initial records, with Hudi's five meta columns filled in
 *       beforehand, written as one Parquet file per partition</li>
 *   <li>{@code floor-rewrite --table T --out DIR --records N (--batch M | --count D)}: every base file of Sluice's
 *       table {@code T} that the upsert batch (or delete set) touches, read and rewritten unchanged</li>
 *   <li>{@code floor-encode --out FILE --records N (--batch M | --count D)}: the changed records (or the deleted
 *       keys) Avro-encoded to one file</li>
 *   <li>{@code floor-read --reads L=T@q,...}: a scan of the latest base files of {@code T}, the files spread over
 *       as many threads as the engines get (Sluice's scan reads slices on that many), so it stays a floor</li>
 * </ul>
 * Each runs once untimed on part of its input first (warm-up), then timed.
 */
final class FloorSteps {
  private static final Schema KEY_SCHEMA = new Schema.Parser().parse("{\"type\": \"record\", \"name\": \"bench_key\","
      + " \"namespace\": \"dev.sluice.bench\", \"fields\": [{\"name\": \"key\", \"type\": \"string\"},"
      + " {\"name\": \"part\", \"type\": \"string\"}]}");

  private final StepArgs args;
  private final PrintStream out;
  private final Workloads workloads;
  private final int threads;
  private final long rowGroupSize;

  private FloorSteps(StepArgs args, PrintStream out) {
    this.args = args;
    this.out = out;
    this.workloads = new Workloads(args.getLong("seed", 1));
    this.threads = args.getInt("parallelism");
    this.rowGroupSize = args.getLong("max-file-size");
  }

  static void run(StepArgs args, PrintStream out) {
    FloorSteps f = new FloorSteps(args, out);
    switch (args.step()) {
      case "floor-insert" -> f.insert();
      case "floor-rewrite" -> f.rewrite();
      case "floor-encode" -> f.encode();
      case "floor-read" -> f.read();
      default -> throw new IllegalArgumentException("unknown floor step " + args.step());
    }
    out.flush();
  }

  private void insert() {
    Path dir = Path.of(args.get("out"));
    List<GenericRecord> records = withMetaColumns(workloads.initial(args.getLong("records")));
    writePartitions(dir.resolve("warmup"), records.subList(0, Math.min(records.size(), 20_000)));
    Dirs.delete(dir.resolve("warmup"));
    Path timed = dir.resolve("t");
    StepReport r = measure(timed, () -> writePartitions(timed, records));
    print(r.put("records", (long) records.size()));
  }

  /**
   * The rows a Hudi writer stores for {@code records}: the five meta columns (commit time, sequence number, key,
   * partition, file name), then the record's fields. Built before the clock starts, so the floor is the cost of
   * writing the same content, not of computing it.
   */
  private static List<GenericRecord> withMetaColumns(List<GenericRecord> records) {
    Schema schema = MetaFields.withMetaFields(BenchRecords.SCHEMA);
    int user = BenchRecords.SCHEMA.getFields().size();
    String instant = "20260101000000000";
    List<GenericRecord> out = new ArrayList<>(records.size());
    long seq = 0;
    for (GenericRecord r : records) {
      GenericData.Record row = new GenericData.Record(schema);
      row.put(0, instant);
      row.put(1, instant + "_0_" + seq++);
      row.put(2, r.get(BenchRecords.KEY));
      row.put(3, r.get(BenchRecords.PARTITION));
      row.put(4, "part-0.parquet");
      for (int i = 0; i < user; i++) {
        row.put(MetaFields.ALL.size() + i, r.get(i));
      }
      out.add(row);
    }
    return out;
  }

  /** One Parquet file per partition value, the partitions spread over the threads. */
  private long writePartitions(Path dir, List<GenericRecord> records) {
    Map<String, List<GenericRecord>> byPartition = new TreeMap<>();
    for (GenericRecord r : records) {
      byPartition.computeIfAbsent(r.get(MetaFields.PARTITION_PATH).toString(), p -> new ArrayList<>()).add(r);
    }
    List<Map.Entry<String, List<GenericRecord>>> parts = new ArrayList<>(byPartition.entrySet());
    Parallel.map(parts, threads, e -> write(dir.resolve(e.getKey()).resolve("part-0.parquet"), e.getValue()));
    return records.size();
  }

  private void rewrite() {
    Path table = Path.of(args.get("table"));
    Path outDir = Path.of(args.get("out"));
    List<BaseFile> touched = touchedFiles(table, batchKeys());
    touched.sort(Comparator.comparingLong(BaseFile::size));
    if (!touched.isEmpty()) {
      copyFile(touched.get(0), outDir.resolve("warmup"));
      Dirs.delete(outDir.resolve("warmup"));
    }
    Path timed = outDir.resolve("t");
    AtomicLong rows = new AtomicLong();
    StepReport r = measure(timed, () -> {
      Parallel.map(touched, threads, f -> rows.addAndGet(copyFile(f, timed)));
      return rows.get();
    });
    print(r.put("records", rows.get()).put("files", (long) touched.size()));
  }

  /** The keys the step changes: an upsert batch (updates and inserts) or a delete set, with partitions. */
  private List<GenericRecord> batchKeys() {
    long n = args.getLong("records");
    if (args.find("count").isPresent()) {
      return workloads.deletes(n, args.getInt("count"));
    }
    return workloads.upsert(1, n, args.getInt("batch"));
  }

  /**
   * The base files the write rewrites: those whose key range holds a changed key of their partition, and for an
   * upsert, the smallest file of each partition that gets inserts (small-file handling sends them there).
   */
  private List<BaseFile> touchedFiles(Path table, List<GenericRecord> changed) {
    Table t = Tables.open(table.toString());
    FileSystemView view = TableInternals.fileSystemView(t);
    Set<String> existing = new HashSet<>();
    boolean upsert = args.find("count").isEmpty();
    Set<String> insertPartitions = new HashSet<>();
    long n = args.getLong("records");
    BenchRecords gen = workloads.records();
    if (upsert) {
      for (long i = n; i < Workloads.sizeAfter(n, 1, args.getInt("batch")); i++) {
        existing.add(gen.key(i));
        insertPartitions.add(gen.partition(i));
      }
    }
    Map<String, List<String>> keysByPartition = new TreeMap<>();
    for (GenericRecord r : changed) {
      String key = r.get(BenchRecords.KEY).toString();
      if (!existing.contains(key)) {
        keysByPartition.computeIfAbsent(r.get(BenchRecords.PARTITION).toString(), p -> new ArrayList<>()).add(key);
      }
    }
    List<BaseFile> out = new ArrayList<>();
    for (String partition : view.partitions()) {
      List<String> keys = keysByPartition.getOrDefault(partition, List.of());
      List<BaseFile> files = view.latestBaseFiles(partition);
      BaseFile smallest = files.stream().min(Comparator.comparingLong(BaseFile::size)).orElse(null);
      for (BaseFile f : files) {
        Footer footer = BaseFileReader.open(t.storage(), f.path(), f.size()).footer();
        String min = footer.minRecordKey().orElse("");
        String max = footer.maxRecordKey().orElse("\uffff");
        boolean hit = keys.stream().anyMatch(k -> k.compareTo(min) >= 0 && k.compareTo(max) <= 0);
        if (hit || (f == smallest && insertPartitions.contains(partition))) {
          out.add(f);
        }
      }
    }
    return out;
  }

  private long copyFile(BaseFile f, Path dir) {
    try (ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(
        new LocalInputFile(Path.of(f.path())), readConf()).withDataModel(GenericData.get())
        .build()) {
      GenericRecord r;
      long n = 0;
      Path target = dir.resolve(f.fileName());
      try (Sink writer = newWriter(target, null)) {
        while ((r = reader.read()) != null) {
          writer.write(r);
          n++;
        }
      }
      return n;
    } catch (IOException e) {
      throw new UncheckedIOException("floor rewrite of " + f.path(), e);
    }
  }

  private long write(Path file, List<GenericRecord> records) {
    try (Sink writer = newWriter(file, records.get(0).getSchema())) {
      for (GenericRecord r : records) {
        writer.write(r);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("floor write of " + file, e);
    }
    return records.size();
  }

  /** A plain parquet-avro writer with the engines' codec, row group and page sizes; schema from the first record. */
  private Sink newWriter(Path file, Schema schema) throws IOException {
    Files.createDirectories(file.getParent());
    return new Sink(file, schema);
  }

  private void encode() {
    Path file = Path.of(args.get("out"));
    boolean deletes = args.find("count").isPresent();
    List<GenericRecord> changed = batchKeys();
    List<GenericRecord> records = changed;
    Schema schema = BenchRecords.SCHEMA;
    if (deletes) {
      records = new ArrayList<>(changed.size());
      for (GenericRecord r : changed) {
        GenericData.Record k = new GenericData.Record(KEY_SCHEMA);
        k.put(0, r.get(BenchRecords.KEY));
        k.put(1, r.get(BenchRecords.PARTITION));
        records.add(k);
      }
      schema = KEY_SCHEMA;
    }
    List<GenericRecord> all = records;
    Schema s = schema;
    encodeTo(file.resolveSibling(file.getFileName() + ".warmup"), s, all.subList(0, Math.min(all.size(), 20_000)));
    StepReport r = measure(file.getParent(), () -> encodeTo(file, s, all));
    print(r.put("records", (long) all.size()).put("bytes", size(file)));
  }

  private static long encodeTo(Path file, Schema schema, List<GenericRecord> records) {
    GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(schema);
    try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
      BinaryEncoder enc = EncoderFactory.get().binaryEncoder(os, null);
      for (GenericRecord r : records) {
        writer.write(r, enc);
      }
      enc.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("floor encode to " + file, e);
    }
    return records.size();
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void read() {
    for (String spec : args.list("reads")) {
      int eq = spec.indexOf('=');
      int at = spec.lastIndexOf('@');
      String label = spec.substring(0, eq);
      Path table = Path.of(spec.substring(eq + 1, at));
      Table t = Tables.open(table.toString());
      FileSystemView view = TableInternals.fileSystemView(t);
      List<BaseFile> files = new ArrayList<>();
      for (String p : view.partitions()) {
        files.addAll(view.latestBaseFiles(p));
      }
      if (!files.isEmpty()) {
        scanFile(files.get(0));
      }
      long[] result = new long[2];
      StepReport r = measure(label, table, () -> {
        long[] s = scan(files);
        result[0] = s[0];
        result[1] = s[1];
        return s[0];
      });
      print(r.put("rows", result[0]).put("ts_sum", result[1]).put("files", (long) files.size()));
    }
  }

  /** Rows and ts sum of a plain parquet-avro scan of {@code files}, all columns, files spread over the threads. */
  private long[] scan(List<BaseFile> files) {
    long rows = 0;
    long ts = 0;
    for (long[] s : Parallel.map(files, threads, FloorSteps::scanFile)) {
      rows += s[0];
      ts += s[1];
    }
    return new long[] {rows, ts};
  }

  /** Rows and ts sum of one file. */
  private static long[] scanFile(BaseFile f) {
    long rows = 0;
    long ts = 0;
    try (ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(
        new LocalInputFile(Path.of(f.path())), readConf()).withDataModel(GenericData.get())
        .build()) {
      GenericRecord r;
      int tsPos = -1;
      while ((r = reader.read()) != null) {
        if (tsPos < 0) {
          tsPos = r.getSchema().getField(BenchRecords.ORDERING).pos();
        }
        ts += (Long) r.get(tsPos);
        rows++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("floor read of " + f.path(), e);
    }
    return new long[] {rows, ts};
  }

  /** parquet-avro's fastest plain settings: Utf8 strings, no compatibility conversions (as Sluice's reader). */
  private static PlainParquetConfiguration readConf() {
    PlainParquetConfiguration conf = new PlainParquetConfiguration();
    conf.setBoolean(AvroReadSupport.AVRO_COMPATIBILITY, false);
    return conf;
  }

  private StepReport measure(Path dir, Supplier<Long> body) {
    return measure(args.get("label"), dir, body);
  }

  private StepReport measure(String label, Path dir, Supplier<Long> body) {
    DirSnapshot before = DirSnapshot.of(dir);
    HeapMeter heap = new HeapMeter();
    heap.start();
    long t0 = System.nanoTime();
    body.get();
    long t1 = System.nanoTime();
    heap.stop();
    return new StepReport(label).put("engine", "floor").put("seconds", (t1 - t0) / 1e9).heap(heap)
        .written(before.writtenSince());
  }

  private void print(StepReport r) {
    out.println(r.line());
    out.flush();
  }

  /** A parquet-avro writer opened at the first record, when the schema is known. */
  private final class Sink implements Closeable {
    private final Path file;
    private Schema schema;
    private ParquetWriter<GenericRecord> delegate;

    Sink(Path file, Schema schema) {
      this.file = file;
      this.schema = schema;
    }

    void write(GenericRecord r) throws IOException {
      if (delegate == null) {
        if (schema == null) {
          schema = r.getSchema();
        }
        PlainParquetConfiguration conf = new PlainParquetConfiguration();
        conf.setBoolean(AvroWriteSupport.WRITE_OLD_LIST_STRUCTURE, true);
        delegate = AvroParquetWriter.<GenericRecord>builder(new LocalOutputFile(file))
            .withSchema(schema)
            .withConf(conf)
            .withDataModel(GenericData.get())
            .withCompressionCodec(CompressionCodecName.SNAPPY)
            .withRowGroupSize(rowGroupSize)
            .withPageSize(1 << 20)
            .withDictionaryPageSize(1 << 20)
            .withDictionaryEncoding(true)
            .build();
      }
      delegate.write(r);
    }

    @Override
    public void close() throws IOException {
      if (delegate != null) {
        delegate.close();
      }
    }
  }
}
