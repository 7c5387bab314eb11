package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.TableSpec;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.api.TableType;
import dev.sluice.api.CommitResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
 * {@code sluice upsert-cost}: what a small upsert costs on Copy-on-Write and on Merge-on-Read. Builds one table of
 * each type with the same rows in the same number of file groups, then upserts the same few updates, spread over
 * the file groups, into both, and prints the bytes written and the time taken.
 */
@Command(name = "upsert-cost", description = "Measure a small upsert (updates spread over many file groups) on a "
    + "Copy-on-Write and a Merge-on-Read table: bytes written and time.")
final class UpsertCostCommand implements Callable<Integer> {
  private static final String[] CITIES = {"amsterdam", "lisbon", "oslo", "rome"};
  /** Far above a trip's real size, so that files are cut by row count (the planner's buckets), not by bytes. */
  private static final int BYTES_PER_ROW_ESTIMATE = 10_000;

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Where to build (default: a new temp folder).")
  Path dir;

  @Option(names = "--rows", defaultValue = "200000", description = "Rows in each table (default 200000).")
  int rows;

  @Option(names = "--file-groups", defaultValue = "40", description = "File groups the rows are spread over (default 40).")
  int fileGroups;

  @Option(names = "--updates", defaultValue = "100", description = "Updates per upsert (default 100).")
  int updates;

  @Option(names = "--rounds", defaultValue = "3", description = "Measured upserts per table after one warm-up (default 3).")
  int rounds;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (rows < 1 || fileGroups < 1 || updates < 1 || rounds < 1) {
      throw SluiceException.badRequest("upsert-cost --rows " + rows + " --file-groups " + fileGroups + " --updates " + updates
          + " --rounds " + rounds, "every count must be at least 1", "Give positive numbers.");
    }
    PrintWriter out = spec.commandLine().getOut();
    Path root = dir != null ? dir : Files.createTempDirectory("sluice-upsert-cost-");
    Files.createDirectories(root);
    Schema schema = DemoCommand.tripSchema();
    // bulk insert sizes file groups by the estimate: rows / fileGroups rows each
    long rowsPerGroup = Math.max(1, (rows + fileGroups - 1) / fileGroups);
    Config config = Config.of(Map.of("hoodie.copyonwrite.record.size.estimate", String.valueOf(BYTES_PER_ROW_ESTIMATE),
        "hoodie.parquet.max.file.size", String.valueOf(rowsPerGroup * BYTES_PER_ROW_ESTIMATE),
        "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", String.valueOf(Math.max(1000, rowsPerGroup))));
    List<GenericRecord> base = new ArrayList<>(rows);
    Random rnd = new Random(7);
    for (int i = 0; i < rows; i++) {
      base.add(trip(schema, rnd, i, 1_000));
    }
    out.printf("Building a Copy-on-Write and a Merge-on-Read table of %,d trips in %s ...%n", rows, root);
    out.flush();
    Table cow = create(root.resolve("cost_cow"), TableType.COPY_ON_WRITE, schema, config);
    Table mor = create(root.resolve("cost_mor"), TableType.MERGE_ON_READ, schema, config);
    cow.bulkInsert(base.iterator());
    mor.bulkInsert(base.iterator());
    TableInspection listing = cow.inspect();
    int groups = listing.partitions().stream().mapToInt(p -> listing.fileGroups(p).size()).sum();
    long[][] cowRuns = new long[rounds][];
    long[][] morRuns = new long[rounds][];
    for (int round = -1; round < rounds; round++) {
      List<GenericRecord> batch = new ArrayList<>(updates);
      for (int i = 0; i < updates; i++) {
        GenericRecord old = base.get(rnd.nextInt(rows));
        batch.add(trip(schema, rnd, Integer.parseInt(old.get("trip_id").toString().substring(5)), 10_000 + 1_000 * (round + 2)));
      }
      long[] c = measure(cow, batch);
      long[] m = measure(mor, batch);
      if (round >= 0) {
        cowRuns[round] = c;
        morRuns[round] = m;
      }
    }
    out.printf("%nOne upsert of %d updates spread over %d file groups (%,d rows); median of %d rounds after a warm-up:%n",
        updates, groups, rows, rounds);
    String fmt = "  %-14s %,15d bytes written  %5d files  %,8d ms%n";
    out.printf(fmt, "copy-on-write", median(cowRuns, 0), median(cowRuns, 1), median(cowRuns, 2));
    out.printf(fmt, "merge-on-read", median(morRuns, 0), median(morRuns, 1), median(morRuns, 2));
    out.println("Copy-on-Write rewrites every base file an update touches; Merge-on-Read appends the updated rows to a log");
    out.println("file per file group and merges them at read time (see 'sluice files " + root.resolve("cost_mor") + "').");
    out.flush();
    return 0;
  }

  private static Table create(Path path, TableType type, Schema schema, Config config) {
    return Tables.create(path.toString(), TableSpec.builder(path.getFileName().toString()).type(type).recordKey("trip_id")
        .precombine("ts").partitionBy("city").schema(schema).build(), config);
  }

  /** Bytes written, files written, milliseconds. */
  private static long[] measure(Table t, List<GenericRecord> batch) {
    long start = System.nanoTime();
    CommitResult r = t.upsert(batch.iterator());
    long millis = (System.nanoTime() - start) / 1_000_000;
    return new long[] {r.bytesWritten(), r.files().size(), millis};
  }

  private static long median(long[][] runs, int column) {
    long[] values = Arrays.stream(runs).mapToLong(r -> r[column]).sorted().toArray();
    return values[values.length / 2];
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
