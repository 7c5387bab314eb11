package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.Tables;
import dev.sluice.api.CompactionInfo;
import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.api.FileSliceInfo;
import dev.sluice.api.LogBlockInfo;
import dev.sluice.api.LogFileInfo;
import dev.sluice.api.TableInspection;
import dev.sluice.api.QueryType;
import dev.sluice.api.TableType;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice read-cost}: how Merge-on-Read snapshot reads slow down as delta commits pile up log blocks, and how
 * compaction restores them. Builds one MoR table, then after 1, 5 and 10 delta commits of scattered updates and once
 * more after a compaction times a full snapshot read and a full read-optimized read.
 */
@Command(name = "read-cost", description = "Measure full snapshot and read-optimized reads of one Merge-on-Read table "
    + "after 1, 5 and 10 delta commits of scattered updates, and after compaction.")
final class ReadCostCommand implements Callable<Integer> {
  private static final String[] CITIES = {"amsterdam", "lisbon", "oslo", "rome"};
  /** Far above a trip's real size, so that files are cut by row count (the planner's buckets), not by bytes. */
  private static final int BYTES_PER_ROW_ESTIMATE = 10_000;
  private static final int[] MEASURED_AFTER = {1, 5, 10};

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Where to build (default: a new temp folder).")
  Path dir;

  @Option(names = "--rows", defaultValue = "200000", description = "Rows in the table (default 200000).")
  int rows;

  @Option(names = "--batch", defaultValue = "10000", description = "Updates per delta commit, scattered over all file "
      + "groups (default 10000).")
  int batch;

  @Option(names = "--file-groups", defaultValue = "40", description = "File groups the rows are spread over, across 4 "
      + "partitions (default 40).")
  int fileGroups;

  @Option(names = "--runs", defaultValue = "3", description = "Timed reads of each kind per step, after one warm-up "
      + "read; the median is reported (default 3).")
  int runs;

  @Spec
  CommandSpec spec;

  /** One measured step: rows read, what the latest slices hold, median times. */
  record Step(String name, int deltaCommits, long snapshotRows, long roRows, int logFiles, int logBlocks, long logBytes,
              long snapshotMs, long roMs) {
    double ratio() {
      return (double) snapshotMs / Math.max(1, roMs);
    }
  }

  @Override
  public Integer call() throws IOException {
    if (rows < 1 || batch < 1 || fileGroups < 1 || runs < 1) {
      throw SluiceException.badRequest("read-cost --rows " + rows + " --batch " + batch + " --file-groups " + fileGroups
          + " --runs " + runs, "every count must be at least 1", "Give positive numbers.");
    }
    PrintWriter out = spec.commandLine().getOut();
    Path root = dir != null ? dir : Files.createTempDirectory("sluice-read-cost-");
    Files.createDirectories(root);
    Path path = root.resolve("readcost_mor");
    if (Files.exists(path)) {
      throw SluiceException.badRequest("read-cost " + root, path + " already exists", "Give an empty or new folder.");
    }
    Schema schema = DemoCommand.tripSchema();
    long rowsPerGroup = Math.max(1, (rows + fileGroups - 1) / fileGroups);
    Config config = Config.of(Map.of("hoodie.copyonwrite.record.size.estimate", String.valueOf(BYTES_PER_ROW_ESTIMATE),
        "hoodie.parquet.max.file.size", String.valueOf(rowsPerGroup * BYTES_PER_ROW_ESTIMATE),
        "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", String.valueOf(Math.max(1000, rowsPerGroup))));
    out.printf("Building a Merge-on-Read table of %,d trips in %s ...%n", rows, path);
    out.flush();
    Table table = Tables.create(path.toString(), TableSpec.builder(path.getFileName().toString())
        .type(TableType.MERGE_ON_READ).recordKey("trip_id").precombine("ts").partitionBy("city").schema(schema).build(),
        config);
    Random rnd = new Random(11);
    List<GenericRecord> base = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      base.add(trip(schema, rnd, i, 1_000));
    }
    table.bulkInsert(base.iterator());
    base = null;
    TableInspection view = table.inspect();
    int groups = view.partitions().stream().mapToInt(p -> view.fileGroups(p).size()).sum();
    out.printf("%d file groups in %d partitions; each delta commit upserts %,d updates of random keys.%n", groups,
        view.partitions().size(), batch);
    out.flush();
    List<Step> steps = new ArrayList<>();
    int commits = 0;
    for (int target : MEASURED_AFTER) {
      while (commits < target) {
        commits++;
        List<GenericRecord> updates = new ArrayList<>(batch);
        for (int i = 0; i < batch; i++) {
          updates.add(trip(schema, rnd, rnd.nextInt(rows), 10_000L * (commits + 1)));
        }
        table.upsert(updates.iterator());
      }
      steps.add(measure(table, "after-" + target, commits));
      printLine(out, steps.get(steps.size() - 1));
    }
    Optional<String> instant = table.compaction().scheduleNow();
    if (instant.isEmpty()) {
      throw SluiceException.badTable(path.toString(), "no compaction was planned although the latest slices have log files",
          "Run 'sluice compact " + path + " --schedule --force' to see why.");
    }
    long start = System.nanoTime();
    CompactionInfo compacted = table.compaction().run(instant.get());
    long compactMs = (System.nanoTime() - start) / 1_000_000;
    out.printf("compaction %s: %d base files, %,d records, %d log files compacted in %,d ms%n", instant.get(),
        compacted.baseFilesWritten(), compacted.recordsWritten(), compacted.logFilesCompacted(), compactMs);
    steps.add(measure(table, "after-compaction", commits));
    printLine(out, steps.get(steps.size() - 1));
    printTable(out, steps);
    out.flush();
    return 0;
  }

  private Step measure(Table table, String name, int deltaCommits) {
    int logFiles = 0;
    int logBlocks = 0;
    long logBytes = 0;
    TableInspection view = table.inspect();
    for (String p : view.partitions()) {
      for (FileSliceInfo s : view.latestSlices(p)) {
        for (LogFileInfo l : s.logFiles()) {
          logFiles++;
          logBytes += l.size();
          try (CloseableIterator<LogBlockInfo> blocks = view.logBlocks(l.path())) {
            while (blocks.hasNext()) {
              blocks.next();
              logBlocks++;
            }
          }
        }
      }
    }
    long[] snapshot = time(table, QueryType.SNAPSHOT);
    long[] ro = time(table, QueryType.READ_OPTIMIZED);
    return new Step(name, deltaCommits, snapshot[0], ro[0], logFiles, logBlocks, logBytes, snapshot[1], ro[1]);
  }

  /** Rows of the last read, median milliseconds of {@code runs} full reads after a warm-up. */
  private long[] time(Table table, QueryType type) {
    long rowsRead = read(table, type);
    long[] millis = new long[runs];
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      rowsRead = read(table, type);
      millis[i] = (System.nanoTime() - start) / 1_000_000;
    }
    Arrays.sort(millis);
    return new long[] {rowsRead, millis[runs / 2]};
  }

  private static long read(Table table, QueryType type) {
    long n = 0;
    try (CloseableIterator<GenericRecord> it = table.newScan().queryType(type).open()) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }

  private static void printLine(PrintWriter out, Step s) {
    out.printf(Locale.ROOT, "READCOST step=%s delta_commits=%d rows=%d ro_rows=%d log_files=%d log_blocks=%d "
            + "log_bytes=%d snapshot_ms=%d ro_ms=%d ratio=%.2f%n", s.name(), s.deltaCommits(), s.snapshotRows(),
        s.roRows(), s.logFiles(), s.logBlocks(), s.logBytes(), s.snapshotMs(), s.roMs(), s.ratio());
    out.flush();
  }

  private void printTable(PrintWriter out, List<Step> steps) {
    out.printf("%nFull reads, median of %d after a warm-up (ms/M = milliseconds per million rows):%n", runs);
    out.printf("  %-17s %9s %6s %7s %12s %12s %9s %10s %9s %6s%n", "step", "rows", "logs", "blocks", "log bytes",
        "snapshot ms", "ms/M", "r-o ms", "ms/M", "ratio");
    for (Step s : steps) {
      out.printf(Locale.ROOT, "  %-17s %,9d %6d %7d %,12d %,12d %,9d %,10d %,9d %6.2f%n", s.name(), s.snapshotRows(),
          s.logFiles(), s.logBlocks(), s.logBytes(), s.snapshotMs(), perMillion(s.snapshotMs(), s.snapshotRows()),
          s.roMs(), perMillion(s.roMs(), s.roRows()), s.ratio());
    }
    out.println("Snapshot reads merge every log block of a slice into its base file; read-optimized reads skip the logs");
    out.println("(and so miss the updates). Compaction rewrites each slice into a new base file without logs.");
  }

  private static long perMillion(long millis, long rowsRead) {
    return rowsRead == 0 ? 0 : Math.round(millis * 1_000_000.0 / rowsRead);
  }

  private static GenericRecord trip(Schema schema, Random rnd, int id, long tsBase) {
    GenericData.Record r = new GenericData.Record(schema);
    r.put("trip_id", String.format("trip-%08d", id));
    r.put("ts", tsBase + rnd.nextInt(1000));
    r.put("city", CITIES[id % CITIES.length]);
    r.put("rider", "rider-" + rnd.nextInt(5000));
    r.put("fare", Math.round(rnd.nextDouble() * 10000) / 100.0);
    r.put("tip", rnd.nextInt(4) == 0 ? null : Math.round(rnd.nextDouble() * 1000) / 100.0);
    return r;
  }
}
