package dev.sluice.internal.read.expr;

import dev.sluice.api.ExpressionParser;
import static dev.sluice.api.Expressions.eq;
import static dev.sluice.api.Expressions.gt;
import static dev.sluice.api.Expressions.in;
import static dev.sluice.api.Expressions.isNull;
import static dev.sluice.api.Expressions.lt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExpressionBinderTest {

  private static SluiceException bindFails(String where) {
    SluiceException e = assertThrows(SluiceException.class,
        () -> ExpressionBinder.bind(ExpressionParser.parse(where), TestRows.SCHEMA));
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    return e;
  }

  @Test
  void unknownColumnIsNamedWithTheAvailableColumns() {
    String msg = bindFails("id = 1 and nope > 3").getMessage();
    assertTrue(msg.contains("unknown column 'nope'"), msg);
    for (String column : new String[] {"id", "part", "ts", "addr", "addr.city", "addr.geo.lat", "tags"}) {
      assertTrue(msg.contains(column), column + " missing from: " + msg);
    }
  }

  @Test
  void unknownNestedFieldIsNamed() {
    String msg = bindFails("addr.town = 'x'").getMessage();
    assertTrue(msg.contains("unknown column 'addr.town'") && msg.contains("addr.city"), msg);
  }

  @Test
  void dotsOnlyReachIntoRecords() {
    String msg = bindFails("part.x = 'a'").getMessage();
    assertTrue(msg.contains("column 'part.x'") && msg.contains("'part'") && msg.contains("not a record"), msg);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "i = 'abc'|column 'i' is int and the literal 'abc'|a whole number",
      "i = 1.5|column 'i' is int and the literal 1.5|a whole number",
      "i > 3000000000|column 'i' is int and the literal 3000000000|2147483647",
      "l = true|column 'l' is long and the literal true|a whole number",
      "s = 5|column 's' is string and the literal 5|a quoted string",
      "d = 'x'|column 'd' is double and the literal 'x'|a number",
      "b = 1|column 'b' is boolean and the literal 1|true or false",
      "dt = '2024-13-01'|column 'dt' is date and the literal '2024-13-01'|an ISO date",
      "ts > 'yesterday'|column 'ts' is timestamp-micros and the literal 'yesterday'|microseconds",
      "tsm > 'yesterday'|column 'tsm' is timestamp-millis|milliseconds",
      "color = 'PINK'|column 'color' is enum and the literal 'PINK'|[RED, GREEN, BLUE]",
      "uid = 'not-a-uuid'|column 'uid' is uuid|a quoted UUID",
      "amount = 'lots'|column 'amount' is decimal|a number",
      "i in (1, 'x')|column 'i' is int and the literal 'x'|a whole number",
  })
  void literalOfTheWrongTypeIsNamed(String where, String problem, String expected) {
    String msg = bindFails(where).getMessage();
    assertTrue(msg.contains(problem), msg);
    assertTrue(msg.contains(expected), msg);
  }

  @Test
  void orderingABooleanIsRejected() {
    String msg = bindFails("b < true").getMessage();
    assertTrue(msg.contains("column 'b' is boolean") && msg.contains("Use =, != or in"), msg);
  }

  @Test
  void comparingARecordOrArrayIsRejected() {
    assertTrue(bindFails("addr = 'x'").getMessage().contains("column 'addr' has type record"));
    assertTrue(bindFails("tags = 'x'").getMessage().contains("column 'tags' has type array"));
  }

  @Test
  void nullChecksApplyToAnyColumn() {
    BoundExpression b = ExpressionBinder.bind(ExpressionParser.parse("addr is null or tags is not null"),
        TestRows.SCHEMA);
    assertEquals(Set.of("addr", "tags"), b.columns());
  }

  @Test
  void columnsMatchCaseInsensitivelyWhenUnambiguous() {
    BoundExpression b = ExpressionBinder.bind(ExpressionParser.parse("ADDR.City = 'x' and Part = 'p'"),
        TestRows.SCHEMA);
    assertEquals(Set.of("addr.city", "part"), b.columns());

    Schema twoCases = SchemaBuilder.record("r").fields().requiredInt("x").requiredInt("X").endRecord();
    assertEquals(Set.of("x"), ExpressionBinder.bind(eq("x", 1), twoCases).columns());
    SluiceException e = assertThrows(SluiceException.class, () -> ExpressionBinder.bind(eq("x ", 1), twoCases));
    assertTrue(e.getMessage().contains("unknown column"));
    SluiceException ambiguous = assertThrows(SluiceException.class,
        () -> ExpressionBinder.bind(eq("x", 1), SchemaBuilder.record("r").fields()
            .requiredInt("Xa").requiredInt("xA").requiredInt("y").endRecord()).columns());
    assertTrue(ambiguous.getMessage().contains("unknown column"));
  }

  @Test
  void acceptsLiteralsThatConvert() {
    // Each of these binds: whole numbers widen, quoted text spells dates, timestamps, UUIDs and numbers.
    String[] ok = {
        "l = 5", "d > 1", "f < 2.5", "amount >= 10", "amount < '12.34'", "dt = '2024-01-31'", "dt > 19000",
        "ts >= '2024-01-31T10:00:00Z'", "ts < '2024-01-31 10:00:00'", "ts < '2024-01-31'", "ts = 1706695200000000",
        "tsm > '2024-01-31T10:00:00.123+02:00'", "uid = '123E4567-E89B-12D3-A456-426614174000'", "color in ('RED')",
        "i = '7'", "b = 'TRUE'", "s = null", "i in (null)", "d = 'NaN'",
    };
    for (String where : ok) {
      ExpressionBinder.bind(ExpressionParser.parse(where), TestRows.SCHEMA);
    }
  }

  @Test
  void rejectsNonRecordSchemaAndOddLiteralTypes() {
    SluiceException e = assertThrows(SluiceException.class,
        () -> ExpressionBinder.bind(isNull("x"), Schema.create(Schema.Type.STRING)));
    assertTrue(e.getMessage().contains("not a record"));
    SluiceException odd = assertThrows(SluiceException.class, () -> gt("x", new Object()));
    assertTrue(odd.getMessage().contains("java.lang.Object"));
    assertThrows(SluiceException.class, () -> in("x", java.util.List.of()));
    assertThrows(SluiceException.class, () -> lt("a..b", 1));
  }
}
