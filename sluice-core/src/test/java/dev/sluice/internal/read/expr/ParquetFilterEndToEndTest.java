package dev.sluice.internal.read.expr;

import dev.sluice.api.ExpressionParser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Writes real Parquet files with parquet-avro and reads them back with the pushed filter. */
class ParquetFilterEndToEndTest {
  private static final int ROWS = 200;
  private static final int ROWS_PER_GROUP = 20;
  private static final Instant T0 = Instant.parse("2024-01-01T00:00:00Z");
  private static final LocalDate D0 = LocalDate.parse("2024-01-01");

  @TempDir
  static Path dir;
  private static Path file;
  private static List<GenericRecord> written;

  /** Rows sorted by id, so every column below is clustered and row-group statistics are selective. */
  @BeforeAll
  static void writeFile() throws IOException {
    written = new ArrayList<>();
    for (int id = 0; id < ROWS; id++) {
      TestRows.RowBuilder b = TestRows.row(id, "p" + (id / 50))
          .set("l", id < 180 ? (long) id : null) // the last row group has only nulls in l
          .set("i", id % 7)
          .set("d", id / 10.0)
          .set("s", id % 10 == 3 ? null : String.format("name-%03d", id))
          .set("dt", (int) D0.plusDays(id / 20).toEpochDay())
          .set("ts", ChronoUnit.MICROS.between(Instant.EPOCH, T0.plusSeconds(60L * id)))
          .set("amount", TestRows.decimal(id + ".25"))
          .set("color", TestRows.color(id < 100 ? "RED" : "BLUE"));
      if (id % 4 != 0) {
        b.set("addr", TestRows.addr(id < 120 ? "Lyon" : "Paris", 10000 + id, null));
      }
      written.add(b.build());
    }
    file = dir.resolve("rows.parquet");
    TestRows.write(file, TestRows.SCHEMA, written, ROWS_PER_GROUP);
  }

  @Test
  void fileHasSeveralRowGroups() throws IOException {
    assertEquals(ROWS / ROWS_PER_GROUP, TestRows.rowGroups(file));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "l >= 150 and s is not null",
      "l < 30 or l > 170",
      "ts >= '2024-01-01T02:00:00Z' and ts < '2024-01-01T02:30:00Z'",
      "dt = '2024-01-05'",
      "dt > '2024-01-08' and part = 'p3'",
      "s > 'name-150' and s <= 'name-160'",
      "s in ('name-010', 'name-015')",
      "addr.city = 'Paris' and addr.zip < 10130",
      "color = 'RED' and d > 9.5",
      "part = 'p0' and amount > 20",
      "i = 3 and l < 40",
  })
  void pushdownSkipsRowGroupsAndKeepsEveryMatch(String where) throws IOException {
    BoundExpression bound = ExpressionBinder.bind(ExpressionParser.parse(where), TestRows.SCHEMA);
    Optional<FilterPredicate> pushed = bound.toParquet();
    assertTrue(pushed.isPresent(), where);
    Set<Long> expected = matchingIds(bound);
    assertTrue(!expected.isEmpty(), "test data should match " + where);

    // Statistics-level filtering only: whole row groups (and pages) are skipped, rows are not filtered.
    List<GenericRecord> coarse = TestRows.read(file, pushed, false);
    assertTrue(coarse.size() < ROWS, where + " skipped nothing");
    assertEquals(expected, exactIds(coarse, bound), where);

    // With Parquet's record-level filter too, every match is still there.
    List<GenericRecord> fine = TestRows.read(file, pushed, true);
    assertEquals(expected, exactIds(fine, bound), where);
    assertTrue(fine.size() <= coarse.size());
  }

  @Test
  void negatedComparisonKeepsRowGroupsOfNulls() throws IOException {
    BoundExpression bound = ExpressionBinder.bind(ExpressionParser.parse("not (l > 5)"), TestRows.SCHEMA);
    Set<Long> expected = matchingIds(bound);
    // ids 0..5 and the 20 ids whose l is null.
    assertEquals(6 + 20, expected.size());
    List<GenericRecord> read = TestRows.read(file, bound.toParquet(), true);
    assertEquals(expected, exactIds(read, bound));

    // Parquet's own not() is rewritten to l <= 5 for statistics and would lose the all-null row group.
    FilterPredicate naive = FilterApi.not(FilterApi.gt(FilterApi.longColumn("l"), 5L));
    List<GenericRecord> naiveRead = TestRows.read(file, Optional.of(naive), false);
    assertTrue(exactIds(naiveRead, bound).size() < expected.size(), "the naive filter should lose rows");
  }

  @Test
  void andNotWithAnUnconvertibleSideKeepsItsMatches(@TempDir Path tmp) throws IOException {
    // One row group has l = 2 everywhere; within it the rows with amount <= 3 match the expression.
    List<GenericRecord> rows = new ArrayList<>();
    for (int id = 0; id < 40; id++) {
      rows.add(TestRows.row(id, "p").set("i", 1).set("l", id < 20 ? 2L : 3L)
          .set("amount", TestRows.decimal(id % 2 == 0 ? "1.00" : "5.00")).build());
    }
    Path f = tmp.resolve("andnot.parquet");
    TestRows.write(f, TestRows.SCHEMA, rows, 20);
    BoundExpression bound = ExpressionBinder.bind(
        ExpressionParser.parse("i = 1 and not (l = 2 and amount > 3)"), TestRows.SCHEMA);
    Set<Long> expected = matchingIds(rows, bound);
    assertEquals(30, expected.size());
    assertEquals(expected, exactIds(TestRows.read(f, bound.toParquet(), true), bound));

    // Pushing "i = 1 and l != 2" (dropping the decimal inside the not) would skip the l = 2 group.
    FilterPredicate unsafe = FilterApi.and(FilterApi.eq(FilterApi.intColumn("i"), 1),
        FilterApi.notEq(FilterApi.longColumn("l"), 2L));
    assertTrue(exactIds(TestRows.read(f, Optional.of(unsafe), false), bound).size() < expected.size());
  }

  private static Set<Long> matchingIds(BoundExpression bound) {
    return matchingIds(written, bound);
  }

  private static Set<Long> matchingIds(List<GenericRecord> rows, BoundExpression bound) {
    Set<Long> out = new HashSet<>();
    for (GenericRecord r : rows) {
      if (bound.test(r)) {
        out.add((Long) r.get("id"));
      }
    }
    return out;
  }

  private static Set<Long> exactIds(List<GenericRecord> read, BoundExpression bound) {
    return matchingIds(read, bound);
  }
}
