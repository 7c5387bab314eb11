package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.Tables;
import dev.sluice.api.TableCompaction;
import dev.sluice.api.CompactionInfo;
import dev.sluice.api.Config;
import dev.sluice.api.QueryType;
import dev.sluice.api.Scan;
import dev.sluice.api.ExpressionParser;
import dev.sluice.api.TableType;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.CommitResult;
import dev.sluice.api.FileWriteResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice demo}: builds sample tables on local disk and explains what each step did on disk. */
@Command(name = "demo", description = "Build sample tables on local disk and walk through what each step did.")
final class DemoCommand implements Callable<Integer> {
  private static final String[] CITIES = {"amsterdam", "lisbon", "oslo"};
  /** Changed trips of the Copy-on-Write upsert that arrive late, with a ts older than the stored one. */
  private static final int LATE_EVENTS = 20;

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Where to build (default: a new temp folder).")
  Path dir;

  @Spec
  CommandSpec spec;

  private PrintWriter out;

  /** The Merge-on-Read table's insert instant and one of its log files, named in the closing hints. */
  private String morInsert;
  private String morLogFile;

  static Schema tripSchema() {
    return SchemaBuilder.record("trip").namespace("demo").fields()
        .requiredString("trip_id")
        .requiredLong("ts")
        .requiredString("city")
        .requiredString("rider")
        .requiredDouble("fare")
        .name("tip").type().optional().doubleType()
        .endRecord();
  }

  @Override
  public Integer call() throws IOException {
    out = spec.commandLine().getOut();
    Path root = dir != null ? dir : Files.createTempDirectory("sluice-demo-");
    Files.createDirectories(root);
    Path cow = root.resolve("trips_cow");
    Path mor = root.resolve("trips_mor");
    if (Files.exists(cow) || Files.exists(mor)) {
      out.println("error: " + (Files.exists(cow) ? cow : mor) + " exists; give an empty DIR");
      return 1;
    }
    Schema schema = tripSchema();
    step("1. Create a Copy-on-Write table partitioned by city (record key trip_id, precombine ts)");
    Table t = Tables.create(cow.toString(), TableSpec.builder("trips_cow").type(TableType.COPY_ON_WRITE)
        .recordKey("trip_id").precombine("ts").partitionBy("city").schema(schema).build(), demoConfig());
    say("wrote " + rel(root, cow.resolve(".hoodie/hoodie.properties")) + " (Hudi table version " + t.tableVersion()
        + ", the default) and the .hoodie/ folders");

    step("2. Insert 3,000 trips");
    Random rnd = new Random(42);
    List<GenericRecord> trips = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      trips.add(trip(schema, rnd, String.format("trip-%05d", i), 1_000));
    }
    CommitResult c1 = t.insert(trips.iterator());
    describe(c1);
    listFiles(root, cow);

    step("3. Upsert 300 changed trips (a later ts, but 20 of them late events with an earlier ts) and 150 new ones");
    List<GenericRecord> batch = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      GenericRecord old = trips.get(rnd.nextInt(trips.size()));
      // a late event carries a ts below the stored one's (1,000-1,999): event-time ordering keeps the stored version
      long tsBase = i < LATE_EVENTS ? 0 : 2_000;
      batch.add(trip(schema, rnd, old.get("trip_id").toString(), tsBase, old.get("city").toString()));
    }
    for (int i = 3000; i < 3150; i++) {
      batch.add(trip(schema, rnd, String.format("trip-%05d", i), 2_000));
    }
    CommitResult c2 = t.upsert(batch.iterator());
    describe(c2);
    narrate(300, c2);
    say("Copy-on-Write rewrote every file group that received an update: each got a new base file version");
    say("with the new commit time in its name; file groups that received nothing were not read or written.");

    step("4. Delete 100 trips by key");
    List<GenericRecord> deletes = new ArrayList<>();
    Schema keys = t.keySchema();
    for (int i = 0; i < 100; i++) {
      GenericRecord src = trips.get(i * 7);
      GenericData.Record k = new GenericData.Record(keys);
      k.put("trip_id", src.get("trip_id"));
      k.put("city", src.get("city"));
      deletes.add(k);
    }
    describe(t.delete(deletes.iterator()));

    step("5. Query");
    say("rows now: " + count(t, null, null) + " (3,000 + 150 new - 100 deleted)");
    say("rows with city = 'oslo' and fare > 90: " + count(t, "city = 'oslo' and fare > 90", null)
        + " (partition pruning reads only the oslo files)");
    say("time travel to the first commit " + c1.instantTime() + ": " + count(t, null, c1.instantTime()) + " rows");

    step("6. The timeline in .hoodie/");
    timelineFiles(cow).forEach(this::say);
    say("each write is <instant>.commit.requested -> <instant>.inflight -> the completed file, which appears last, in");
    say("one step (on table version 9, under .hoodie/timeline/, named <instant>_<completion time>.commit).");

    mergeOnRead(root, mor, schema, trips);
    out.println();
    out.println("Done. Explore it yourself:");
    out.println("  bin/sluice timeline " + cow);
    out.println("  bin/sluice files " + cow);
    out.println("  bin/sluice query " + cow + " --where \"city = 'lisbon'\" --limit 5 --format table");
    out.println("  bin/sluice files " + mor + "          (file slices: base file, log files, their blocks)");
    out.println("  bin/sluice logs " + mor + " " + morLogFile + "   (the blocks of one log file)");
    out.println("  bin/sluice stats " + mor);
    out.println("  bin/sluice query " + mor + " --type incremental --from " + morInsert + " --meta --limit 5");
    out.flush();
    return 0;
  }

  /**
   * The Merge-on-Read half: the same trips, then updates and deletes that go to log files, the snapshot and
   * read-optimized views that differ until a compaction, an incremental query and {@code sluice stats}.
   */
  private void mergeOnRead(Path root, Path mor, Schema schema, List<GenericRecord> trips) {
    step("7. Create a Merge-on-Read table with the same layout and insert the same 3,000 trips");
    Table t = Tables.create(mor.toString(), TableSpec.builder("trips_mor").type(TableType.MERGE_ON_READ)
        .recordKey("trip_id").precombine("ts").partitionBy("city").schema(schema).build(), demoConfig());
    CommitResult inserted = t.insert(trips.iterator());
    // an incremental query's range is of completion times on table versions 8 and 9 (version 6 records none: there
    // it is the instant time); the insert completed after it was requested, and a range from there leaves it out
    morInsert = t.inspect().completionTime(inserted.instantTime()).orElse(inserted.instantTime());
    describe(inserted);
    say("inserts go to base files, as on Copy-on-Write; the commit is a deltacommit.");

    step("8. Upsert 300 changed trips (a later ts, a new fare), then delete 30 others");
    Random rnd = new Random(7);
    List<GenericRecord> changed = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      GenericRecord old = trips.get(i * 10);
      changed.add(trip(schema, rnd, old.get("trip_id").toString(), 2_000, old.get("city").toString()));
    }
    CommitResult upserted = t.upsert(changed.iterator());
    describe(upserted);
    narrate(300, upserted);
    morLogFile = upserted.files().get(0).relativePath();
    List<GenericRecord> gone = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      gone.add(key(t, trips.get(i * 10 + 5)));
    }
    describe(t.delete(gone.iterator()));
    say("Merge-on-Read rewrote no base file: each file group got log files (.<file id>_<instant>.log.<n>_...): a");
    say("data block of its changed rows, then a delete block (table version 9: one new log file per delta commit,");
    say("named after that commit; version 6 appends .log.1_, .log.2_, ... named after the base file's instant):");
    listFiles(root, mor);

    step("9. Snapshot vs read-optimized query");
    String probe = changed.get(0).get("trip_id").toString();
    say("snapshot (base files merged with the logs): " + countAs(t, QueryType.SNAPSHOT, null) + " rows, "
        + countAs(t, QueryType.SNAPSHOT, "ts >= 2000") + " with ts >= 2000 (the updated trips); "
        + probe + " fare " + fare(t, QueryType.SNAPSHOT, probe));
    say("read-optimized (base files only): " + countAs(t, QueryType.READ_OPTIMIZED, null) + " rows, "
        + countAs(t, QueryType.READ_OPTIMIZED, "ts >= 2000") + " with ts >= 2000; "
        + probe + " fare " + fare(t, QueryType.READ_OPTIMIZED, probe));
    say("the read-optimized query skips the logs: fast, but it shows the old values and the deleted rows");
    say("until the table is compacted.");

    step("10. sluice stats: what the logs cost a snapshot read");
    CommandLine stats = Main.commandLine();
    stats.setOut(out);
    stats.setErr(spec.commandLine().getErr());
    stats.execute("stats", mor.toString());
    say("read-amp > 1: a snapshot read opens the log bytes too, and merges their records into every base row.");

    step("11. Compaction: schedule a plan, then run it");
    TableCompaction compaction = t.compaction();
    String planned = compaction.scheduleNow().orElseThrow();
    say(String.format("scheduled compaction %s: %d file groups (%s)", planned,
        compaction.plan(planned).operations().size(),
        timelineFiles(mor).filter(f -> f.endsWith("/" + planned + ".compaction.requested")).findFirst()
            .orElse(planned + ".compaction.requested")));
    CompactionInfo compacted = compaction.run(planned);
    say(String.format("compaction %s: %d base files written, %d records, %d log files compacted", compacted.instantTime(),
        compacted.baseFilesWritten(), compacted.recordsWritten(), compacted.logFilesCompacted()));
    say("after compaction: snapshot " + countAs(t, QueryType.SNAPSHOT, null) + " rows, "
        + countAs(t, QueryType.SNAPSHOT, "ts >= 2000") + " with ts >= 2000; read-optimized "
        + countAs(t, QueryType.READ_OPTIMIZED, null) + " rows, " + countAs(t, QueryType.READ_OPTIMIZED, "ts >= 2000")
        + " with ts >= 2000");
    say("each file group has a new base file holding the merged rows, so both queries now read the same rows.");
    say("(sluice compact TABLE --schedule / --run does this from the command line; see docs/merge-on-read.md)");

    step("12. Incremental query: what changed since the insert completed (" + morInsert + ")");
    say("incremental from " + morInsert + ": " + incremental(t, morInsert) + " rows, the trips updated after it (the");
    say("compaction rewrote rows but is not a write, so it adds none). On table version 9 (and 8) the range is");
    say("of completion times and, as in Hudi 1.x, the deleted trips are absent; on a version 6 table");
    say("--include-deletes adds them, flagged _hoodie_is_deleted = true.");
  }

  private static GenericRecord key(Table t, GenericRecord src) {
    GenericData.Record k = new GenericData.Record(t.keySchema());
    k.put("trip_id", src.get("trip_id"));
    k.put("city", src.get("city"));
    return k;
  }

  private static long countAs(Table t, QueryType type, String where) {
    Scan scan = t.newScan().queryType(type);
    return count(where == null ? scan : scan.filter(ExpressionParser.parse(where)));
  }

  private static Object fare(Table t, QueryType type, String tripId) {
    try (CloseableIterator<GenericRecord> rows = t.newScan().queryType(type)
        .filter(ExpressionParser.parse("trip_id = '" + tripId + "'")).open()) {
      return rows.hasNext() ? rows.next().get("fare") : "(none)";
    }
  }

  /** Rows of an incremental query from {@code begin}. */
  private static long incremental(Table t, String begin) {
    return count(t.newScan().incremental(begin));
  }

  private static Config demoConfig() {
    // small files so the demo shows several file groups per partition
    return Config.of(java.util.Map.of("hoodie.parquet.max.file.size", "262144", "hoodie.parquet.small.file.limit", "0",
        "hoodie.copyonwrite.record.size.estimate", "256", "hoodie.index.bloom.num_entries", "2000"));
  }

  private static GenericRecord trip(Schema schema, Random rnd, String id, long tsBase) {
    return trip(schema, rnd, id, tsBase, CITIES[rnd.nextInt(CITIES.length)]);
  }

  private static GenericRecord trip(Schema schema, Random rnd, String id, long tsBase, String city) {
    GenericData.Record r = new GenericData.Record(schema);
    r.put("trip_id", id);
    r.put("ts", tsBase + rnd.nextInt(1000));
    r.put("city", city);
    r.put("rider", "rider-" + rnd.nextInt(500));
    r.put("fare", Math.round(rnd.nextDouble() * 10000) / 100.0);
    r.put("tip", rnd.nextInt(4) == 0 ? null : Math.round(rnd.nextDouble() * 1000) / 100.0);
    return r;
  }

  private long count(Table t, String where, String asOf) {
    var scan = t.newScan();
    if (where != null) {
      scan = scan.filter(ExpressionParser.parse(where));
    }
    if (asOf != null) {
      scan = scan.asOf(asOf);
    }
    return count(scan);
  }

  private static long count(Scan scan) {
    long n = 0;
    try (CloseableIterator<GenericRecord> rows = scan.open()) {
      while (rows.hasNext()) {
        rows.next();
        n++;
      }
    }
    return n;
  }

  /**
   * What became of {@code changed} changed trips, from the write's own counts: updated, older than the stored
   * version and ignored, or another version of a trip already in the batch (combined into one).
   */
  private void narrate(int changed, CommitResult r) {
    StringBuilder sb = new StringBuilder(String.format("%,d changed trips: %,d updated", changed, r.updated()));
    long older = r.outcome().olderThanStored();
    long combined = r.outcome().combined();
    if (older > 0) {
      sb.append(String.format(", %,d older than the stored version and ignored (ordering field ts)", older));
    }
    if (combined > 0) {
      sb.append(String.format(", %,d a second version of a trip picked twice in the batch, combined into one (the "
          + "larger ts wins)", combined));
    }
    say(sb.toString());
  }

  private void describe(CommitResult r) {
    say(String.format("commit %s (%s): %d inserted, %d updated, %d deleted; %d files written, %,d bytes",
        r.instantTime(), r.operation(), r.inserted(), r.updated(), r.deleted(), r.files().size(), r.bytesWritten()));
    OutcomeText.lines(r).forEach(l -> say("  " + l));
    for (FileWriteResult f : r.files()) {
      String kind = f.logAppend().isPresent() ? "logged" : f.prevCommit().equals(FileWriteResult.NULL_COMMIT) ? "new   " : "merged";
      say(String.format("  %s %s  (%d rows)", kind, f.relativePath(), f.numWrites()));
    }
  }

  /**
   * The table's timeline files relative to the table ({@code .hoodie/...}), sorted: on version 6 the files in
   * {@code .hoodie/}, on 8 and 9 those in {@code .hoodie/timeline/} (its {@code history/} archive aside).
   */
  private static Stream<String> timelineFiles(Path table) {
    Path hoodie = table.resolve(".hoodie");
    Path timeline = Files.isDirectory(hoodie.resolve("timeline")) ? hoodie.resolve("timeline") : hoodie;
    try (Stream<Path> s = Files.list(timeline)) {
      return s.filter(Files::isRegularFile).map(p -> table.relativize(p).toString()).sorted().toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void listFiles(Path root, Path table) {
    try (Stream<Path> s = Files.walk(table)) {
      s.filter(Files::isRegularFile).filter(p -> !p.toString().contains("/.hoodie/"))
          .map(p -> rel(root, p)).sorted().forEach(p -> say("  " + p));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String rel(Path root, Path p) {
    return root.relativize(p).toString();
  }

  private void step(String title) {
    out.println();
    out.println("== " + title);
  }

  private void say(String line) {
    out.println(line);
  }
}
