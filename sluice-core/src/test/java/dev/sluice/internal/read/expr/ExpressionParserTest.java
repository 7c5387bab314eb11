package dev.sluice.internal.read.expr;

import dev.sluice.api.Expression;
import dev.sluice.api.ExpressionParser;
import static dev.sluice.api.Expressions.and;
import static dev.sluice.api.Expressions.eq;
import static dev.sluice.api.Expressions.ge;
import static dev.sluice.api.Expressions.gt;
import static dev.sluice.api.Expressions.in;
import static dev.sluice.api.Expressions.isNotNull;
import static dev.sluice.api.Expressions.isNull;
import static dev.sluice.api.Expressions.le;
import static dev.sluice.api.Expressions.lt;
import static dev.sluice.api.Expressions.ne;
import static dev.sluice.api.Expressions.not;
import static dev.sluice.api.Expressions.or;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.api.Expression.Op;
import java.math.BigDecimal;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ExpressionParserTest {

  private static Expression parse(String text) {
    return ExpressionParser.parse(text);
  }

  @Test
  void andBindsTighterThanOr() {
    assertEquals(or(eq("a", 1L), and(eq("b", 2L), eq("c", 3L))), parse("a = 1 or b = 2 and c = 3"));
    assertEquals(or(and(eq("a", 1L), eq("b", 2L)), eq("c", 3L)), parse("a = 1 and b = 2 or c = 3"));
  }

  @Test
  void notBindsTighterThanAnd() {
    assertEquals(and(not(eq("a", 1L)), eq("b", 2L)), parse("not a = 1 and b = 2"));
    assertEquals(or(not(eq("a", 1L)), not(not(eq("b", 2L)))), parse("not a = 1 or not not b = 2"));
  }

  @Test
  void parenthesesOverridePrecedence() {
    assertEquals(and(or(eq("a", 1L), eq("b", 2L)), eq("c", 3L)), parse("(a = 1 or b = 2) and c = 3"));
    assertEquals(not(and(eq("a", 1L), eq("b", 2L))), parse("not (a = 1 and b = 2)"));
    assertEquals(eq("a", 1L), parse("((a = 1))"));
  }

  @Test
  void chainsAssociateToTheLeft() {
    assertEquals(new Expression.And(new Expression.And(eq("a", 1L), eq("b", 2L)), eq("c", 3L)),
        parse("a = 1 and b = 2 and c = 3"));
    assertEquals(new Expression.Or(new Expression.Or(eq("a", 1L), eq("b", 2L)), eq("c", 3L)),
        parse("a = 1 or b = 2 or c = 3"));
  }

  @Test
  void keywordsAreCaseInsensitive() {
    assertEquals(or(and(not(eq("a", 1L)), isNotNull("b")), in("c", true, null)),
        parse("NOT a = 1 AnD b IS NOT NULL Or c IN (TRUE, Null)"));
  }

  @ParameterizedTest
  @CsvSource({"=,EQ", "==,EQ", "!=,NE", "<>,NE", "<,LT", "<=,LE", ">,GT", ">=,GE"})
  void parsesEveryComparisonOperator(String symbol, Op op) {
    Expression expected = new Expression.Comparison("ts", op, 100L);
    assertEquals(expected, parse("ts " + symbol + " 100"));
    assertEquals(expected, parse("ts" + symbol + "100"));
  }

  @Test
  void parsesInNotInAndNullChecks() {
    assertEquals(in("x", 1L, "a", null, true, new BigDecimal("2.5")), parse("x in (1, 'a', null, true, 2.5)"));
    assertEquals(not(in("x", 1L, 2L)), parse("x not in (1,2)"));
    assertEquals(isNull("x"), parse("x is null"));
    assertEquals(isNotNull("x"), parse("x is not null"));
  }

  @Test
  void parsesLiterals() {
    assertEquals(eq("s", "it's"), parse("s = 'it''s'"));
    assertEquals(eq("s", ""), parse("s = ''"));
    assertEquals(eq("s", "a and b or (c)"), parse("s = 'a and b or (c)'"));
    assertEquals(eq("n", -5L), parse("n = -5"));
    assertEquals(gt("n", -5L), parse("n>-5"));
    assertEquals(eq("n", new BigDecimal("1.50")), parse("n = 1.50"));
    assertEquals(eq("n", new BigDecimal("-2.5E+3")), parse("n = -2.5e3"));
    assertEquals(eq("n", new BigDecimal("99999999999999999999")), parse("n = 99999999999999999999"));
    assertEquals(eq("b", false), parse("b = FALSE"));
    assertEquals(eq("b", null), parse("b = null"));
  }

  @Test
  void parsesNestedAndQuotedColumns() {
    assertEquals(eq("addr.geo.lat", 1L), parse("addr.geo.lat = 1"));
    assertEquals(eq("odd name.x", 1L), parse("`odd name`.x = 1"));
    assertEquals(eq("and", 1L), parse("`and` = 1"));
    assertEquals(eq("a`b", 1L), parse("`a``b` = 1"));
    assertEquals(Set.of("a.b", "c"), parse("a.b = 1 or c is null or a.b > 2").columns());
  }

  @Test
  void toStringWritesTheParserSyntax() {
    assertEquals("ts > 100 and part = 'p1' and name is not null",
        and(gt("ts", 100L), eq("part", "p1"), isNotNull("name")).toString());
    assertEquals("(a = 1 or b != 'it''s') and not (c in (1, null))",
        and(or(eq("a", 1L), ne("b", "it's")), not(in("c", 1L, null))).toString());
    assertEquals("`and`.`odd name` <= 2.5", le("and.odd name", new BigDecimal("2.5")).toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "a = 1 or b = 2 and c = 3",
      "a = 1 and (b = 2 and c = 3)",
      "a = 1 or (b = 2 or c = 3)",
      "not (a = 1 or b >= -2.5) and c in ('x', null, false)",
      "`odd name`.x is not null or `in` < 1e10",
      "s = 'it''s' and s <> '' and t not in (1, 2)",
  })
  void toStringRoundTrips(String text) {
    Expression e = parse(text);
    assertEquals(e, parse(e.toString()));
  }

  @Test
  void javaLiteralsRoundTripToEquivalentLiterals() {
    Expression e = and(lt("d", 1.0e10), ge("f", Float.NaN), eq("t", java.time.LocalDate.of(2024, 1, 31)));
    assertEquals("d < 1.0E10 and f >= 'NaN' and t = '2024-01-31'", e.toString());
    assertEquals(and(lt("d", new BigDecimal("1.0E10")), ge("f", "NaN"), eq("t", "2024-01-31")), parse(e.toString()));
  }

  @Test
  void reportsThePositionOfAnUnexpectedToken() {
    String text = "ts > 100 and )";
    SluiceException e = assertThrows(SluiceException.class, () -> parse(text));
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    assertTrue(e.getMessage().startsWith("--where expression: unexpected ')' at position " + (text.indexOf(')') + 1)
        + " in: " + text), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "ts >|end of input at position 5",
      "a = 1)|')' at position 6",
      "a = 1 b = 2|'b' at position 7",
      "(a = 1|end of input at position 7",
      "and = 1|'and' at position 1",
      "a in 1|'1' at position 6",
      "x in ()|')' at position 7",
      "a is 5|'5' at position 6",
      "a not null|'null' at position 7",
      "a = b|'b' at position 5",
      "a.1 = 2|'1' at position 3",
      "= 1|'=' at position 1",
  })
  void reportsUnexpectedTokens(String text, String found) {
    SluiceException e = assertThrows(SluiceException.class, () -> parse(text));
    assertTrue(e.getMessage().contains("unexpected " + found + " in: " + text), e.getMessage());
  }

  @Test
  void reportsLexicalErrors() {
    assertMessage("s = 'abc", "unterminated string starting at position 5");
    assertMessage("`abc = 1", "unterminated quoted column name starting at position 1");
    assertMessage("a # 1", "unexpected character '#' at position 3");
    assertMessage("a ! 1", "unexpected character '!' at position 3");
    assertMessage("`a.b` = 1", "bad quoted column name `a.b` at position 1");
    assertMessage("   ", "the expression is empty");
  }

  @Test
  void unclosedParenthesisNamesWhereItOpened() {
    String text = "a = 1 and (b = 2 or (c = 3)";
    assertMessage(text, "Expected ')' to close the '(' at position " + (text.indexOf('(') + 1));
  }

  @Test
  void keywordAsColumnSuggestsBackticks() {
    assertMessage("x = 1 or in = 1", "`in`");
  }

  private static void assertMessage(String text, String part) {
    SluiceException e = assertThrows(SluiceException.class, () -> parse(text));
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    assertTrue(e.getMessage().contains(part), e.getMessage());
  }
}
