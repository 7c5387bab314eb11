package dev.sluice.internal.read.expr;

import dev.sluice.api.Expression;
import dev.sluice.api.ExpressionParser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Expression.Op;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.Size;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.filter2.predicate.FilterPredicate;

/**
 * Properties over random expressions and records: the text form parses back to the same expression, and the
 * Parquet pushdown never loses a row the expression matches.
 */
class ExpressionPropertiesTest {
  private static final Instant T0 = Instant.parse("2024-01-01T00:00:00Z");
  private static final LocalDate D0 = LocalDate.parse("2024-01-01");
  private static final String[] TEXTS = {"", "a", "ab", "b", "it's", "é", "\uFFFD", "\uD83D\uDE00", "z"};
  private static final String[] CITIES = {"Lyon", "Paris", "Zürich"};
  private static final String[] COLORS = {"RED", "GREEN", "BLUE"};

  /**
   * A column the generators use, with the literals that may be compared with it.
   *
   * @param name column
   * @param ordered whether {@code <} etc. apply
   * @param literals literals of the parser's own Java types (Long, BigDecimal with a fraction, String, Boolean)
   */
  private record Column(String name, boolean ordered, List<Object> literals) {
  }

  private static final List<Column> COLUMNS = List.of(
      new Column("i", true, List.of(-1L, 0L, 1L, 2L, 3L, 5L)),
      new Column("l", true, List.of(0L, 3L, 7L, 11L, 20L)),
      new Column("d", true, List.of(-1L, 0L, 2L, new BigDecimal("-1.5"), new BigDecimal("2.5"), new BigDecimal("3.0"))),
      new Column("f", true, List.of(new BigDecimal("0.5"), new BigDecimal("1.25"), 2L)),
      new Column("b", false, List.of(true, false)),
      new Column("s", true, List.of((Object[]) TEXTS)),
      new Column("part", true, List.of("p0", "p1", "p2")),
      new Column("dt", true, List.of("2024-01-01", "2024-01-03", D0.plusDays(2).toEpochDay())),
      new Column("ts", true, List.of("2024-01-01T00:02:00Z", "2024-01-01 00:05:00",
          ChronoUnit.MICROS.between(Instant.EPOCH, T0.plusSeconds(180)))),
      new Column("amount", true, List.of(new BigDecimal("1.00"), new BigDecimal("2.5"), 3L)),
      new Column("color", true, List.of((Object[]) COLORS)),
      new Column("addr.city", true, List.of((Object[]) CITIES)),
      new Column("addr.zip", true, List.of(1L, 2L, 3L)));

  @Property(tries = 150, seed = "20261203")
  void textFormParsesBackToAnEquivalentExpression(@ForAll("expressions") Expression e, @ForAll long seed) {
    Expression reparsed = ExpressionParser.parse(e.toString());
    assertEquals(e, reparsed, e.toString());
    BoundExpression a = ExpressionBinder.bind(e, TestRows.SCHEMA);
    BoundExpression b = ExpressionBinder.bind(reparsed, TestRows.SCHEMA);
    for (GenericRecord r : records(seed, 30)) {
      assertEquals(a.test(r), b.test(r), e + " on " + r);
    }
  }

  /** Several expressions per file, since writing the file is the slow part. */
  @Property(tries = 15, seed = "20261203")
  void pushdownNeverDropsAMatchingRow(@ForAll @Size(10) List<@From("expressions") Expression> expressions,
      @ForAll long seed) throws IOException {
    List<GenericRecord> rows = records(seed, 40);
    List<BoundExpression> bound = new ArrayList<>();
    List<Set<Long>> expected = new ArrayList<>();
    for (Expression e : expressions) {
      BoundExpression b = ExpressionBinder.bind(e, TestRows.SCHEMA);
      bound.add(b);
      Set<Long> ids = new HashSet<>();
      for (GenericRecord r : rows) {
        if (b.test(r)) {
          ids.add((Long) r.get("id"));
        }
      }
      expected.add(ids);
    }
    Path file = Files.createTempFile("sluice-expr-", ".parquet");
    try {
      Files.delete(file); // the writer creates it
      TestRows.write(file, TestRows.SCHEMA, rows, 5);
      for (int k = 0; k < bound.size(); k++) {
        Optional<FilterPredicate> pushed = bound.get(k).toParquet();
        // With the record-level filter on, a row lost by statistics (row group, page, dictionary) or by the
        // record filter is missing, so one read checks both.
        Set<Long> read = new HashSet<>(TestRows.ids(TestRows.read(file, pushed, true)));
        assertTrue(read.containsAll(expected.get(k)), bound.get(k) + " pushed as " + pushed
            + " lost rows: expected " + expected.get(k) + ", read " + read);
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** Built once: jqwik arbitraries are immutable, and building the recursive one is not free. */
  private static final Arbitrary<Expression> EXPRESSIONS = expression(3);

  @Provide
  Arbitrary<Expression> expressions() {
    return EXPRESSIONS;
  }

  private static Arbitrary<Expression> expression(int depth) {
    Arbitrary<Expression> leaf = Arbitraries.of(COLUMNS).flatMap(ExpressionPropertiesTest::leaf);
    if (depth == 0) {
      return leaf;
    }
    Arbitrary<Expression> sub = expression(depth - 1);
    return Arbitraries.frequencyOf(
        Tuple.of(4, leaf),
        Tuple.of(2, Combinators.combine(sub, sub).as(Expression.And::new)),
        Tuple.of(2, Combinators.combine(sub, sub).as(Expression.Or::new)),
        Tuple.of(2, sub.map(Expression.Not::new)));
  }

  private static Arbitrary<Expression> leaf(Column c) {
    Arbitrary<Object> literal = Arbitraries.frequencyOf(
        Tuple.of(12, Arbitraries.of(c.literals())),
        Tuple.of(1, Arbitraries.just(null)));
    Arbitrary<Op> op = c.ordered() ? Arbitraries.of(Op.class) : Arbitraries.of(Op.EQ, Op.NE);
    return Arbitraries.frequencyOf(
        Tuple.of(6, Combinators.combine(op, literal).as((o, v) -> new Expression.Comparison(c.name(), o, v))),
        Tuple.of(2, literal.list().ofMinSize(1).ofMaxSize(3).map(vs -> new Expression.In(c.name(), vs))),
        Tuple.of(1, Arbitraries.just(new Expression.IsNull(c.name()))),
        Tuple.of(1, Arbitraries.just(new Expression.IsNotNull(c.name()))));
  }

  /** Random rows over the literals' domains; {@code l} is clustered and a run of rows has no {@code i}. */
  private static List<GenericRecord> records(long seed, int count) {
    Random rnd = new Random(seed);
    int nullRun = rnd.nextInt(count);
    List<GenericRecord> out = new ArrayList<>();
    for (int id = 0; id < count; id++) {
      TestRows.RowBuilder b = TestRows.row(id, "p" + rnd.nextInt(3));
      boolean noI = id >= nullRun && id < nullRun + 8;
      b.set("i", noI || rnd.nextInt(5) == 0 ? null : rnd.nextInt(8) - 2);
      b.set("l", rnd.nextInt(6) == 0 ? null : (long) (id / 2 + rnd.nextInt(2)));
      b.set("d", maybe(rnd, () -> (rnd.nextInt(12) - 4) / 2.0));
      b.set("f", maybe(rnd, () -> rnd.nextInt(10) / 4.0f));
      b.set("b", maybe(rnd, rnd::nextBoolean));
      b.set("s", maybe(rnd, () -> TEXTS[rnd.nextInt(TEXTS.length)]));
      b.set("dt", maybe(rnd, () -> (int) D0.plusDays(rnd.nextInt(5)).toEpochDay()));
      b.set("ts", maybe(rnd, () -> ChronoUnit.MICROS.between(Instant.EPOCH, T0.plusSeconds(30L * rnd.nextInt(14)))));
      b.set("amount", maybe(rnd, () -> TestRows.decimal(new BigDecimal(rnd.nextInt(16)).divide(new BigDecimal(4))
          .toPlainString())));
      b.set("color", maybe(rnd, () -> TestRows.color(COLORS[rnd.nextInt(COLORS.length)])));
      if (rnd.nextInt(4) != 0) {
        b.set("addr", TestRows.addr(maybe(rnd, () -> CITIES[rnd.nextInt(CITIES.length)]),
            maybe(rnd, () -> rnd.nextInt(4)), null));
      }
      out.add(b.build());
    }
    return out;
  }

  private static <T> T maybe(Random rnd, java.util.function.Supplier<T> value) {
    return rnd.nextInt(5) == 0 ? null : value.get();
  }
}
