package dev.sluice.internal.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.Table;
import dev.sluice.api.TripFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;

/**
 * A CoW trips table and what it should hold after each commit: commit 0 inserts ids 0..7 over p0 and p1, every
 * later commit updates the p0 rows only (so p0's file group gets a new base file per commit and p1's keeps its
 * first one). Tests compare scans, time travel included, with the amounts recorded here.
 */
public final class History {
  private final Path dir;
  private final Table table;
  private final List<String> commits = new ArrayList<>();
  private final Map<String, Map<String, Double>> expected = new LinkedHashMap<>();
  private final Map<String, Double> current = new TreeMap<>();

  private History(Path dir, Table table) {
    this.dir = dir;
    this.table = table;
  }

  /** A new table in {@code dir} with {@code options}, and its first commit. */
  public static History start(Path dir, Map<String, String> options) {
    History h = new History(dir, TripFixture.create(dir, TripFixture.spec().tableVersion(6).build(), options));
    List<GenericRecord> rows = TripFixture.trips(0, 8, 2, 0);
    String t = h.table.insert(rows.iterator()).instantTime();
    rows.forEach(r -> h.current.put(r.get("id").toString(), (Double) r.get("amount")));
    h.record(t);
    return h;
  }

  /** Upserts the p0 rows with a new amount; returns the commit time. */
  public String updateP0() {
    return update(true, false);
  }

  /** Upserts the rows of p0 and/or p1 with a new amount; returns the commit time. */
  public String update(boolean p0, boolean p1) {
    int round = commits.size();
    List<GenericRecord> rows = new ArrayList<>();
    for (String id : current.keySet()) {
      int n = Integer.parseInt(id.substring(3));
      if (n % 2 == 0 ? p0 : p1) {
        String part = "p" + (n % 2);
        rows.add(TripFixture.trip(id, round, part, "round-" + round, round * 100.0 + n));
      }
    }
    String t = table.upsert(rows.iterator()).instantTime();
    rows.forEach(r -> current.put(r.get("id").toString(), (Double) r.get("amount")));
    record(t);
    return t;
  }

  private void record(String t) {
    commits.add(t);
    expected.put(t, new TreeMap<>(current));
  }

  /** The table. */
  public Table table() {
    return table;
  }

  /** The commit times, oldest first. */
  public List<String> commits() {
    return commits;
  }

  /** The amount per id a query as of {@code commit} must return. */
  public Map<String, Double> expectedAt(String commit) {
    return expected.get(commit);
  }

  /** Asserts that a time-travel scan as of {@code commit} returns exactly the rows it held. */
  public void assertReadsAsOf(String commit) {
    assertEquals(expectedAt(commit), amounts(TripFixture.rows(table.newScan().asOf(commit).open())),
        "rows as of " + commit);
  }

  /** Asserts that a snapshot scan returns the rows of the last commit. */
  public void assertReadsLatest() {
    assertEquals(current, amounts(TripFixture.rows(table)), "latest rows");
  }

  /** The instants of the base files of a partition on disk. */
  public TreeSet<String> baseFileInstants(String partition) {
    try (Stream<Path> files = Files.list(dir.resolve(partition))) {
      TreeSet<String> out = new TreeSet<>();
      files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".parquet"))
          .forEach(n -> out.add(n.substring(n.lastIndexOf('_') + 1, n.length() - ".parquet".length())));
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, Double> amounts(Map<String, GenericRecord> rows) {
    Map<String, Double> out = new TreeMap<>();
    rows.forEach((id, r) -> out.put(id, (Double) r.get("amount")));
    return out;
  }
}
