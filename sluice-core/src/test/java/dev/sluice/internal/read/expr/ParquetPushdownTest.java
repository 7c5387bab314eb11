package dev.sluice.internal.read.expr;

import dev.sluice.api.ExpressionParser;
import static org.apache.parquet.filter2.predicate.FilterApi.and;
import static org.apache.parquet.filter2.predicate.FilterApi.binaryColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.booleanColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.doubleColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.eq;
import static org.apache.parquet.filter2.predicate.FilterApi.floatColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.gt;
import static org.apache.parquet.filter2.predicate.FilterApi.gtEq;
import static org.apache.parquet.filter2.predicate.FilterApi.in;
import static org.apache.parquet.filter2.predicate.FilterApi.intColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.longColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.lt;
import static org.apache.parquet.filter2.predicate.FilterApi.ltEq;
import static org.apache.parquet.filter2.predicate.FilterApi.notEq;
import static org.apache.parquet.filter2.predicate.FilterApi.or;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.Set;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ParquetPushdownTest {

  private static Optional<FilterPredicate> push(String where) {
    return ExpressionBinder.bind(ExpressionParser.parse(where), TestRows.SCHEMA).toParquet();
  }

  private static Binary text(String s) {
    return Binary.fromString(s);
  }

  @Test
  void conjunctionOfTypedLeaves() {
    assertEquals(Optional.of(and(and(gt(longColumn("l"), 100L), eq(binaryColumn("part"), text("p1"))),
            notEq(binaryColumn("s"), null))),
        push("l > 100 and part = 'p1' and s is not null"));
  }

  @Test
  void literalsTakeTheColumnsParquetType() {
    long micros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.parse("2024-01-31T10:00:00Z"));
    int day = (int) LocalDate.parse("2024-01-31").toEpochDay();
    assertEquals(Optional.of(eq(intColumn("i"), 3)), push("i = 3"));
    assertEquals(Optional.of(ltEq(intColumn("dt"), day)), push("dt <= '2024-01-31'"));
    assertEquals(Optional.of(gtEq(longColumn("ts"), micros)), push("ts >= '2024-01-31T10:00:00Z'"));
    assertEquals(Optional.of(lt(longColumn("tsm"), micros / 1000)), push("tsm < '2024-01-31T10:00:00Z'"));
    assertEquals(Optional.of(lt(longColumn("ts"), 42L)), push("ts < 42"));
    assertEquals(Optional.of(gt(floatColumn("f"), 2.5f)), push("f > 2.5"));
    assertEquals(Optional.of(eq(doubleColumn("d"), 1.0)), push("d = 1"));
    assertEquals(Optional.of(notEq(booleanColumn("b"), true)), push("b != true"));
    assertEquals(Optional.of(eq(binaryColumn("color"), text("RED"))), push("color = 'RED'"));
    assertEquals(Optional.of(eq(binaryColumn("addr.city"), text("Paris"))), push("addr.city = 'Paris'"));
    assertEquals(Optional.of(in(intColumn("i"), Set.of(1, 2))), push("i in (1, 2, null)"));
    assertEquals(Optional.of(in(binaryColumn("s"), Set.of(text("a"), text("b")))), push("s in ('a', 'b')"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"amount > 1", "uid = '123e4567-e89b-12d3-a456-426614174000'", "addr is null",
      "tags is not null", "i = null", "i in (null)", "amount > 1 or i = 2", "i = 2 or amount > 1",
      "not (i = 2 and amount > 1)", "not (i > 1) or amount < 3"})
  void partsThatCannotBeExpressedPushNothing(String where) {
    assertEquals(Optional.empty(), push(where));
  }

  @Test
  void conjunctsThatCannotBeExpressedAreLeftOut() {
    assertEquals(Optional.of(eq(intColumn("i"), 2)), push("amount > 1 and i = 2"));
    assertEquals(Optional.of(eq(intColumn("i"), 2)), push("i = 2 and uid = '123e4567-e89b-12d3-a456-426614174000'"));
    assertEquals(Optional.of(eq(longColumn("l"), 1L)), push("i = null and l = 1"));
    assertEquals(Optional.of(or(eq(intColumn("i"), 2), and(eq(longColumn("l"), 1L), gt(longColumn("ts"), 5L)))),
        push("i = 2 or (l = 1 and ts > 5 and amount > 3)"));
  }

  @Test
  void negationsArePushedToLeavesKeepingNulls() {
    assertEquals(Optional.of(or(gtEq(intColumn("i"), 5), eq(intColumn("i"), null))), push("not (i < 5)"));
    assertEquals(Optional.of(notEq(intColumn("i"), 5)), push("not (i = 5)"));
    assertEquals(Optional.of(or(eq(intColumn("i"), 5), eq(intColumn("i"), null))), push("not (i != 5)"));
    assertEquals(Optional.of(notEq(intColumn("i"), null)), push("not (i is null)"));
    assertEquals(Optional.of(eq(intColumn("i"), null)), push("not (i is not null)"));
    assertEquals(Optional.of(eq(intColumn("i"), 5)), push("not not i = 5"));
    assertEquals(Optional.of(and(notEq(intColumn("i"), 1), notEq(intColumn("i"), 2))), push("i not in (1, 2)"));
    assertEquals(Optional.of(or(notEq(intColumn("i"), 1), or(ltEq(longColumn("l"), 2L), eq(longColumn("l"), null)))),
        push("not (i = 1 and l > 2)"));
  }

  @Test
  void andNotPushesOnlyWhatCannotDropAMatch() {
    // not (l = 2 and amount > 3) is "l != 2 or not amount > 3"; the decimal side cannot be pushed, so the whole
    // negated part is left out rather than pushed as "l != 2" (which would drop rows with l = 2, amount <= 3).
    assertEquals(Optional.of(eq(intColumn("i"), 1)), push("i = 1 and not (l = 2 and amount > 3)"));
    // not (a or b) is "not a and not b": each side that converts is kept.
    assertEquals(Optional.of(and(eq(intColumn("i"), 1), notEq(longColumn("l"), 2L))),
        push("i = 1 and not (l = 2 or amount > 3)"));
  }

  @Test
  void fileSchemaLeavesOutColumnsThatDifferOrAreMissing() {
    MessageType file = MessageTypeParser.parseMessageType(
        "message row { required int64 id; optional int64 i; optional int64 l; optional group addr {"
            + " optional binary city (STRING); } }");
    BoundExpression b = ExpressionBinder.bind(
        ExpressionParser.parse("i = 1 and l = 2 and s = 'x' and addr.city = 'P' and id > 3"), TestRows.SCHEMA);
    assertEquals(Optional.of(and(and(eq(longColumn("l"), 2L), eq(binaryColumn("addr.city"), text("P"))),
        gt(longColumn("id"), 3L))), b.toParquet(file));
  }
}
