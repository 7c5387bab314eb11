package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
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
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice demo}: builds sample tables on local disk and explains what each step did on disk. */
@Command(name = "demo", description = "Build sample tables on local disk and walk through what each step did.")
final class DemoCommand implements Callable<Integer> {
  private static final String[] CITIES = {"amsterdam", "lisbon", "oslo"};

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Where to build (default: a new temp folder).")
  Path dir;

  @Spec
  CommandSpec spec;

  private PrintWriter out;

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
    if (Files.exists(cow)) {
      out.println("error: " + cow + " exists; give an empty DIR");
      return 1;
    }
    Schema schema = tripSchema();
    step("1. Create a Copy-on-Write table partitioned by city (record key trip_id, precombine ts)");
    Table t = Tables.create(cow.toString(), TableSpec.builder("trips_cow").type(TableType.COPY_ON_WRITE)
        .recordKey("trip_id").precombine("ts").partitionBy("city").schema(schema).build(), demoConfig());
    say("wrote " + rel(root, cow.resolve(".hoodie/hoodie.properties")) + " (Hudi table version 6) and the .hoodie/ folders");

    step("2. Insert 3,000 trips");
    Random rnd = new Random(42);
    List<GenericRecord> trips = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      trips.add(trip(schema, rnd, String.format("trip-%05d", i), 1_000));
    }
    CommitResult c1 = t.insert(trips.iterator());
    describe(c1);
    listFiles(root, cow);

    step("3. Upsert 300 changed trips (a later ts) and 150 new ones");
    List<GenericRecord> batch = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      GenericRecord old = trips.get(rnd.nextInt(trips.size()));
      batch.add(trip(schema, rnd, old.get("trip_id").toString(), 2_000, old.get("city").toString()));
    }
    for (int i = 3000; i < 3150; i++) {
      batch.add(trip(schema, rnd, String.format("trip-%05d", i), 2_000));
    }
    CommitResult c2 = t.upsert(batch.iterator());
    describe(c2);
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
    try (Stream<Path> s = Files.list(cow.resolve(".hoodie"))) {
      s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().forEach(n -> say(".hoodie/" + n));
    }
    say("each write is <instant>.commit.requested -> .inflight -> .commit; the completed file appears last, in one step.");
    out.println();
    out.println("Done. Explore it yourself:");
    out.println("  bin/sluice timeline " + cow);
    out.println("  bin/sluice files " + cow);
    out.println("  bin/sluice query " + cow + " --where \"city = 'lisbon'\" --limit 5 --format table");
    out.flush();
    return 0;
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
    long n = 0;
    try (CloseableIterator<GenericRecord> rows = scan.open()) {
      while (rows.hasNext()) {
        rows.next();
        n++;
      }
    }
    return n;
  }

  private void describe(CommitResult r) {
    say(String.format("commit %s (%s): %d inserted, %d updated, %d deleted; %d files written, %,d bytes",
        r.instantTime(), r.operation(), r.inserted(), r.updated(), r.deleted(), r.files().size(), r.bytesWritten()));
    for (FileWriteResult f : r.files()) {
      String kind = f.logAppend().isPresent() ? "logged" : f.prevCommit().equals(FileWriteResult.NULL_COMMIT) ? "new   " : "merged";
      say(String.format("  %s %s  (%d rows)", kind, f.relativePath(), f.numWrites()));
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
