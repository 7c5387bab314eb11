package dev.sluice.faults;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.api.Config;
import dev.sluice.crash.TableChecks;
import dev.sluice.api.SluiceException;
import dev.sluice.storage.FailingStorage;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.api.TableType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A small upsert with the N-th storage call of each kind failing, for every N the write makes (WRITE calls sampled):
 * the failure surfaces as a SluiceException and the table stays as it was (the writer rolls its instant back), or,
 * where the failed call does not matter to the result (e.g. removing markers after the commit), the write succeeds
 * with its full result. Either way nothing is left pending and no file is unreferenced, and the next write succeeds.
 * Every case runs on table versions 6 and 9.
 */
class StorageFaultTest {
  private static final Map<String, String> OPTIONS = Map.of("hoodie.index.bloom.num_entries", "100",
      "sluice.write.parallelism", "1");
  private static final int MAX_PER_KIND = 40;

  @TempDir
  Path dir;

  private static List<GenericRecord> change() {
    return List.of(trip("id-000000", 5, "p0", "changed", 1), trip("id-000001", 5, "p1", "changed", 2),
        trip("new-1", 5, "p2", "new", 3));
  }

  private static Map<String, String> canonical(Map<String, GenericRecord> rows) {
    Map<String, String> out = new TreeMap<>();
    rows.forEach((k, v) -> out.put(k, GenericData.get().toString(v)));
    return out;
  }

  static Stream<Arguments> typesAndVersions() {
    return Stream.of(TableType.values()).flatMap(type -> Stream.of(6, 9).map(v -> Arguments.of(type, v)));
  }

  @ParameterizedTest(name = "{0} version {1}")
  @MethodSource("typesAndVersions")
  void everyFailingCallOfAWriteFailsItCleanlyOrDoesNotMatter(TableType type, int version) {
    Path base = dir.resolve("base");
    Table t = Tables.create(base.toString(), TripFixture.spec().type(type).tableVersion(version).build(),
        Config.of(OPTIONS));
    t.insert(trips(0, 6, 2, 1).iterator());
    Map<String, String> before = canonical(rows(t));
    FailingStorage counting = new FailingStorage(new LocalStorage());
    Path probe = copy(base, dir.resolve("probe"));
    Table probing = Tables.open(counting.storage(), probe.toString(), Config.of(OPTIONS));
    long[] opened = new long[InterceptedStorage.Op.values().length];
    for (InterceptedStorage.Op op : InterceptedStorage.Op.values()) {
      opened[op.ordinal()] = counting.count(op);
    }
    probing.upsert(change().iterator());
    Map<String, String> after = canonical(rows(Tables.open(probe.toString())));

    int trials = 0;
    int failed = 0;
    List<String> problems = new ArrayList<>();
    Random random = new Random(7);
    Map<String, Long> perKind = new TreeMap<>();
    for (InterceptedStorage.Op op : InterceptedStorage.Op.values()) {
      long calls = counting.count(op) - opened[op.ordinal()];
      List<Long> ns = new ArrayList<>();
      for (long n = 1; n <= calls; n++) {
        ns.add(n);
      }
      perKind.put(op.name(), calls);
      if (ns.size() > MAX_PER_KIND) {
        Collections.shuffle(ns, random);
        ns = new ArrayList<>(ns.subList(0, MAX_PER_KIND));
      }
      for (long n : ns) {
        Path trial = copy(base, dir.resolve("t-" + op + "-" + n));
        FailingStorage storage = new FailingStorage(new LocalStorage());
        Table w = Tables.open(storage.storage(), trial.toString(), Config.of(OPTIONS));
        storage.failOn(op, n, p -> true);
        boolean threw = false;
        try {
          w.upsert(change().iterator());
        } catch (SluiceException e) {
          // a failure in the post-commit services (clean, archival) comes after the commit: the write's result stays
          threw = !e.getMessage().contains(" is complete, but ");
          failed++;
          if (!e.getMessage().contains("injected failure") && !String.valueOf(e.getCause()).contains("injected failure")
              && !suppressedMention(e)) {
            problems.add(op + "#" + n + ": the error does not carry the storage failure: " + e.getMessage());
          }
        }
        storage.heal();
        trials++;
        Table r = Tables.open(trial.toString(), Config.of(OPTIONS));
        Map<String, String> now = canonical(rows(r));
        if (!now.equals(threw ? before : after)) {
          problems.add(op + "#" + n + ": " + (threw ? "failed" : "succeeded") + " but the table is " + (now.equals(after)
              ? "the write's result" : now.equals(before) ? "unchanged" : "a mix"));
        }
        if (!TableInternals.timeline(r).inflightWrites().isEmpty()) {
          problems.add(op + "#" + n + ": pending writes left: " + TableInternals.timeline(r).inflightWrites());
        }
        List<String> leftovers = TableChecks.unreferenced(trial, true);
        if (!leftovers.isEmpty()) {
          problems.add(op + "#" + n + ": unreferenced files " + leftovers);
        }
        r.upsert(List.of(trip("id-000002", 9, "p0", "next", 9)).iterator());
        if (!canonical(rows(r)).containsKey("id-000002")) {
          problems.add(op + "#" + n + ": the next write did not land");
        }
      }
    }
    System.out.println(type + " version " + version + ": " + trials + " injected failures, " + failed + " surfaced as errors, "
        + (trials - failed) + " did not affect the result; calls of the write by kind " + perKind);
    assertTrue(trials > 50, "the write makes storage calls of many kinds: " + trials);
    assertTrue(problems.isEmpty(), String.join("\n", problems));
  }

  private static boolean suppressedMention(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (String.valueOf(c.getMessage()).contains("injected failure")) {
        return true;
      }
    }
    return false;
  }

  @ParameterizedTest(name = "version {0}")
  @ValueSource(ints = {6, 9})
  void readersAndWritersCopeWithShortReads(int version) {
    Path base = dir.resolve("short");
    Table t = Tables.create(base.toString(), TripFixture.spec().type(TableType.COPY_ON_WRITE).tableVersion(version)
        .build(), Config.of(OPTIONS));
    t.insert(trips(0, 200, 2, 1).iterator());
    Map<String, String> expected = canonical(rows(t));
    FailingStorage shortReads = new FailingStorage(new LocalStorage()).shortReads(7);
    Table s = Tables.open(shortReads.storage(), base.toString(), Config.of(OPTIONS));
    assertEquals(expected, canonical(rows(s)), "a scan through 7-byte reads");
    s.upsert(change().iterator());
    Map<String, GenericRecord> merged = rows(Tables.open(base.toString()));
    assertEquals(201, merged.size(), "a merge that reads the old base file in 7-byte reads keeps every row");
    assertEquals("changed", merged.get("id-000001").get("name").toString());
  }

  private static Path copy(Path from, Path to) {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return to;
  }
}
