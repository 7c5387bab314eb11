package dev.sluice.internal.commit;

import static dev.sluice.api.TripFixture.trip;

import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.avro.generic.GenericRecord;

/**
 * One writer of a forced race between two writers of one table, in a thread or in a child JVM ({@link #main}). The
 * race is forced through the storage the writer uses, with files in a sync folder as the signals, so threads and
 * processes run the same choreography:
 *
 * <ol>
 *   <li>the writer's first change under {@code .hoodie} after its first listing of the timeline folder (its view of
 *       the timeline; {@code .hoodie} or {@code .hoodie/timeline} by table version) waits until the other writer has
 *       listed too: neither sees the other's instant when it starts. An instant requested before that gate fails the
 *       writer, so the order never rests on timing;</li>
 *   <li>with {@code hold}, its first data file waits until the other writer has finished: the other one commits
 *       while this one's write is under way, and this one publishes last.</li>
 * </ol>
 *
 * The write updates half of the shared keys {@code s0..s9} (one file group of partition p0; which half depends on
 * the writer's name, so two writers named {@code a} and {@code b} update different keys of the same file group) with
 * the writer's name, and inserts three keys of its own. {@link #run} returns {@code COMMITTED <instant>}, {@code CONFLICT <message>} or
 * {@code FAILED <message>}.
 */
public final class RaceWriter {
  /** Keys every racing write updates. */
  static final int SHARED = 10;

  private static final Set<InterceptedStorage.Op> MUTATIONS = EnumSet.of(InterceptedStorage.Op.CREATE,
      InterceptedStorage.Op.CREATE_EXCLUSIVE, InterceptedStorage.Op.APPEND, InterceptedStorage.Op.DELETE,
      InterceptedStorage.Op.DELETE_TREE, InterceptedStorage.Op.MKDIRS, InterceptedStorage.Op.RENAME);

  private RaceWriter() {
  }

  /** The records of writer {@code name}'s write with ordering value {@code ts}. */
  static List<GenericRecord> records(String name, long ts) {
    List<GenericRecord> out = new ArrayList<>();
    int half = name.charAt(0) % 2;
    for (int i = 0; i < SHARED; i++) {
      if (i % 2 == half) {
        out.add(trip("s" + i, ts, "p0", name, i));
      }
    }
    for (int i = 0; i < 3; i++) {
      out.add(trip(name + "-k" + i, ts, "p1", name, i));
    }
    return out;
  }

  /** Runs the racing write of {@code name} against {@code other}; see the class comment. */
  static String run(Path table, String name, String other, Path sync, boolean hold, Map<String, String> options,
      long ts) {
    AtomicBoolean listed = new AtomicBoolean();
    AtomicBoolean gated = new AtomicBoolean();
    AtomicBoolean held = new AtomicBoolean();
    String meta = table.resolve(".hoodie").toString();
    // the writer's view of the timeline is its listing of the timeline folder: .hoodie (table versions 6 and 8) or
    // .hoodie/timeline (version 9). Matching .hoodie alone left the start gate shut off on version 9 tables, and the
    // race then depended on thread timing: under load a single writer b listed after a had requested its instant
    // and refused to start (CONFLICT at start instead of at publish)
    Set<String> timelineFolders = Set.of(meta, meta + "/timeline");
    InterceptedStorage storage = new InterceptedStorage(new LocalStorage(), call -> {
      if (call.op() == InterceptedStorage.Op.LIST && timelineFolders.contains(call.path())) {
        listed.set(true);
      }
      if (call.op() == InterceptedStorage.Op.CREATE_EXCLUSIVE && call.path().endsWith(".requested") && !gated.get()) {
        // the choreography must have held the writer at its first change: never race on timing alone
        throw new IOException("race choreography: " + name + " requests an instant (" + call.path() + ") before "
            + "the start gate; the gate did not see its listing of the timeline");
      }
      // the gate sits at the first change under .hoodie, not at the listing: a writer released at its listing could
      // still be polling when the other one, already past its own listing, requests its instant, and would then see it
      if (listed.get() && MUTATIONS.contains(call.op()) && call.path().startsWith(meta + "/")
          && gated.compareAndSet(false, true)) {
        touch(sync.resolve(name + ".listed"));
        await(sync.resolve(other + ".listed"));
      }
      boolean data = call.op() == InterceptedStorage.Op.CREATE && !call.path().contains("/.hoodie")
          && !call.path().endsWith(".hoodie_partition_metadata");
      if (hold && data && held.compareAndSet(false, true)) {
        await(sync.resolve(other + ".done"));
      }
    });
    try {
      Table t = Tables.open(storage, table.toString(), Config.of(options));
      return "COMMITTED " + t.upsert(records(name, ts).iterator()).instantTime();
    } catch (SluiceException e) {
      return (e.kind() == SluiceException.Kind.CONFLICT ? "CONFLICT " : "FAILED ") + e.getMessage().replace('\n', ' ');
    } finally {
      touch(sync.resolve(name + ".done"));
    }
  }

  private static void touch(Path p) {
    try {
      Files.writeString(p, "x");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void await(Path p) throws IOException {
    long deadline = System.currentTimeMillis() + 60_000;
    while (!Files.exists(p)) {
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("race choreography: " + p + " did not appear within 60 s");
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
  }

  /** {@code RaceWriter <table> <name> <other> <sync> <hold> <ts> k=v...}: prints the outcome line. */
  public static void main(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 6; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    System.out.println(run(Path.of(args[0]), args[1], args[2], Path.of(args[3]), Boolean.parseBoolean(args[4]),
        options, Long.parseLong(args[5])));
  }
}
