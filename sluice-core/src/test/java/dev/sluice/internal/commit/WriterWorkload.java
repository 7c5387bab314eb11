package dev.sluice.internal.commit;

import static dev.sluice.api.TripFixture.trip;

import dev.sluice.api.Table;
import dev.sluice.api.SluiceException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;
import org.apache.avro.generic.GenericRecord;

/**
 * The writes of one concurrent writer: write {@code i} of writer {@code w} inserts three keys of its own, and (if
 * {@code hot}) updates the shared key {@code hot} with a ts from a shared counter, so concurrent writes collide on
 * the hot key's file group. A write that loses a conflict is retried with the same records.
 */
final class WriterWorkload {
  /** One finished write: the instant, its records' keys and the hot key's version, or the conflicts it met. */
  record Outcome(String writer, int write, String instant, List<String> keys, long hotTs, int conflicts,
      List<String> conflictMessages) {
  }

  private WriterWorkload() {
  }

  static List<GenericRecord> records(String writer, int write, boolean hot, long hotTs) {
    List<GenericRecord> out = new ArrayList<>();
    int part = Math.abs(writer.hashCode()) % 2;
    for (int m = 0; m < 3; m++) {
      out.add(trip(writer + "-w" + write + "-k" + m, 1, "p" + part, writer + "/" + write, m));
    }
    if (hot) {
      out.add(trip("hot", hotTs, "p0", writer + "/" + write, hotTs));
    }
    return out;
  }

  /** Runs the writer's writes, retrying each on CONFLICT (up to 50 attempts). */
  static List<Outcome> run(Table table, String writer, int writes, boolean hot, LongSupplier clock, long seed) {
    Random random = new Random(seed);
    List<Outcome> out = new ArrayList<>();
    for (int i = 0; i < writes; i++) {
      int conflicts = 0;
      List<String> messages = new ArrayList<>();
      while (true) {
        long ts = clock.getAsLong();
        List<GenericRecord> batch = records(writer, i, hot, ts);
        try {
          String instant = table.upsert(batch.iterator()).instantTime();
          out.add(new Outcome(writer, i, instant, batch.stream().map(r -> r.get("id").toString()).toList(), ts, conflicts,
              messages));
          break;
        } catch (SluiceException e) {
          if (e.kind() != SluiceException.Kind.CONFLICT || conflicts >= 50) {
            throw e;
          }
          conflicts++;
          messages.add(e.getMessage());
          try {
            Thread.sleep(random.nextInt(20));
          } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw e;
          }
        }
      }
    }
    return out;
  }
}
