package dev.sluice.internal.commit;

import static dev.sluice.api.TripFixture.trip;

import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;
import org.apache.avro.generic.GenericRecord;

/**
 * A writer of the randomized concurrency runs, in a thread or a child JVM ({@link #main}): each write updates a random
 * handful of the shared keys {@code s0..s9} (one file group) and inserts two keys of its own, with the writer's name
 * and write number as value and an ordering value from a clock shared by all writers; it sleeps a random moment
 * first so that writes overlap differently in each run, and retries on CONFLICT (a conflict at publish, or in
 * single-writer mode another live writer at start). Each committed write is reported with what it wrote.
 */
public final class RandomWriter {
  /** A committed write: its instant, ordering value, and key → value written. */
  record Committed(String instant, long ts, Map<String, String> values) {
    String line() {
      return "COMMIT " + instant + " " + ts + " " + String.join(",", values.keySet()) + " " + values.values().iterator()
          .next();
    }

    static Committed parse(String line) {
      String[] f = line.split(" ");
      Map<String, String> v = new LinkedHashMap<>();
      for (String k : f[3].split(",")) {
        v.put(k, f[4]);
      }
      return new Committed(f[1], Long.parseLong(f[2]), v);
    }
  }

  /** What one writer did: its commits and how many conflicts it met. */
  record Outcome(List<Committed> commits, int conflicts) {
  }

  private RandomWriter() {
  }

  static Outcome run(Table table, String name, int writes, long seed, LongSupplier clock) {
    Random random = new Random(seed);
    List<Committed> out = new ArrayList<>();
    int conflicts = 0;
    for (int w = 0; w < writes; w++) {
      String value = name + "/" + w;
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < RaceWriter.SHARED; i++) {
        if (random.nextInt(3) == 0) {
          keys.add("s" + i);
        }
      }
      keys.add(name + "-w" + w + "-a");
      keys.add(name + "-w" + w + "-b");
      for (int attempt = 0; ; attempt++) {
        sleep(random.nextInt(25));
        long ts = clock.getAsLong();
        List<GenericRecord> batch = new ArrayList<>();
        Map<String, String> values = new LinkedHashMap<>();
        for (String k : keys) {
          batch.add(trip(k, ts, k.startsWith("s") && k.length() <= 3 ? "p0" : "p1", value, ts));
          values.put(k, value);
        }
        try {
          out.add(new Committed(table.upsert(batch.iterator()).instantTime(), ts, values));
          break;
        } catch (SluiceException e) {
          if (e.kind() != SluiceException.Kind.CONFLICT || attempt >= 400) {
            throw e;
          }
          conflicts++;
        }
      }
    }
    return new Outcome(out, conflicts);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** {@code RandomWriter <table> <name> <writes> <seed> k=v...}: a COMMIT line per write, then CONFLICTS n. */
  public static void main(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 4; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    Table t = Tables.open(args[0], Config.of(options));
    Outcome o = run(t, args[1], Integer.parseInt(args[2]), Long.parseLong(args[3]),
        () -> System.currentTimeMillis() * 1000 + System.nanoTime() / 1000 % 1000);
    for (Committed c : o.commits()) {
      System.out.println(c.line());
    }
    System.out.println("CONFLICTS " + o.conflicts());
  }
}
