package dev.sluice.internal.read.expr;

import dev.sluice.api.ExpressionParser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

class BoundExpressionTest {

  private static boolean matches(String where, GenericRecord record) {
    return ExpressionBinder.bind(ExpressionParser.parse(where), TestRows.SCHEMA).test(record);
  }

  private static GenericRecord plain() {
    return TestRows.row(1, "p1").build();
  }

  @Test
  void nestedFieldsAndNullParents() {
    GenericRecord noAddr = plain();
    GenericRecord paris = TestRows.row(2, "p1").set("addr", TestRows.addr("Paris", 75001, 48.85)).build();
    GenericRecord noGeo = TestRows.row(3, "p1").set("addr", TestRows.addr("Lyon", null, null)).build();

    assertFalse(matches("addr.city = 'Paris'", noAddr));
    assertTrue(matches("addr.city is null", noAddr));
    assertTrue(matches("addr is null", noAddr));
    assertTrue(matches("addr.city = 'Paris'", paris));
    assertTrue(matches("addr.zip > 75000 and addr.geo.lat < 49", paris));
    assertFalse(matches("addr.geo.lat < 49", noGeo));
    assertTrue(matches("addr.geo.lat is null and addr.geo is null and addr is not null", noGeo));
    assertTrue(matches("addr.zip is null", noGeo));
  }

  @Test
  void comparisonsWithNullAreFalseAndNotNegatesThem() {
    GenericRecord nulls = plain();
    GenericRecord five = TestRows.row(2, "p1").set("i", 5).build();
    for (String where : new String[] {"i > 1", "i <= 1", "i = 5", "i != 5", "i in (5, null)", "i = null",
        "i != null"}) {
      assertFalse(matches(where, nulls), where);
    }
    assertTrue(matches("not (i > 1)", nulls));
    assertTrue(matches("not (i in (1, 2))", nulls));
    assertTrue(matches("i not in (1, 2)", nulls));
    assertTrue(matches("i is null", nulls));
    assertFalse(matches("i = null", five));
    assertFalse(matches("i != null", five));
    assertTrue(matches("i in (null, 5)", five));
    assertTrue(matches("i != 4 and i >= 5 and i <= 5 and i < 6 and i > 4 and i == 5 and i <> 6", five));
    assertFalse(matches("not (i > 1)", five));
  }

  @Test
  void stringsCompareTheSameAsUtf8OrString() {
    // U+1F600 sorts after U+FFFD by code point (and in UTF-8 bytes), though its UTF-16 form sorts before.
    String[] values = {"abc", "abd", "ab", "", "é", "\uFFFD", "\uD83D\uDE00"};
    String[] literals = {"abc", "ab", "", "é", "\uFFFD", "\uD83D\uDE00", "zzz"};
    for (String value : values) {
      GenericRecord asString = TestRows.row(1, "p").set("s", value).build();
      GenericRecord asUtf8 = TestRows.row(1, "p").set("s", new Utf8(value)).build();
      for (String literal : literals) {
        int expected = Integer.signum(compareCodePoints(value, literal));
        for (String op : new String[] {"=", "!=", "<", "<=", ">", ">="}) {
          String where = "s " + op + " " + ExpressionText.quote(literal);
          boolean want = switch (op) {
            case "=" -> expected == 0;
            case "!=" -> expected != 0;
            case "<" -> expected < 0;
            case "<=" -> expected <= 0;
            case ">" -> expected > 0;
            default -> expected >= 0;
          };
          assertEquals(want, matches(where, asString), where + " on String " + value);
          assertEquals(want, matches(where, asUtf8), where + " on Utf8 " + value);
        }
      }
    }
    assertTrue(matches("s > '\uFFFD'", TestRows.row(1, "p").set("s", new Utf8("\uD83D\uDE00")).build()));
  }

  /** Reference order: compare the arrays of code points. */
  private static int compareCodePoints(String a, String b) {
    int[] x = a.codePoints().toArray();
    int[] y = b.codePoints().toArray();
    return java.util.Arrays.compare(x, y);
  }

  @Test
  void datesCompareAsDaysWhateverTheirJavaType() {
    LocalDate day = LocalDate.of(2024, 1, 31);
    GenericRecord asInt = TestRows.row(1, "p").set("dt", (int) day.toEpochDay()).build();
    GenericRecord asLocalDate = TestRows.row(1, "p").set("dt", day).build();
    for (GenericRecord r : List.of(asInt, asLocalDate)) {
      assertTrue(matches("dt = '2024-01-31'", r));
      assertTrue(matches("dt > '2024-01-30' and dt < '2024-02-01'", r));
      assertTrue(matches("dt = " + day.toEpochDay(), r));
      assertFalse(matches("dt >= '2024-02-01'", r));
      assertTrue(matches("dt in ('2023-12-31', '2024-01-31')", r));
    }
  }

  @Test
  void timestampsCompareInTheColumnsUnit() {
    Instant t = Instant.parse("2024-01-31T10:00:00.123456Z");
    long micros = ChronoUnit.MICROS.between(Instant.EPOCH, t);
    long millis = t.toEpochMilli();
    GenericRecord asLongs = TestRows.row(1, "p").set("ts", micros).set("tsm", millis).build();
    GenericRecord asInstants = TestRows.row(1, "p").set("ts", t).set("tsm", t.truncatedTo(ChronoUnit.MILLIS)).build();
    for (GenericRecord r : List.of(asLongs, asInstants)) {
      assertTrue(matches("ts = '2024-01-31T10:00:00.123456Z'", r));
      assertTrue(matches("ts = '2024-01-31T11:00:00.123456+01:00'", r));
      assertTrue(matches("ts > '2024-01-31 10:00:00' and ts < '2024-01-31T10:00:01'", r));
      assertTrue(matches("ts >= '2024-01-31' and ts < '2024-02-01'", r));
      assertTrue(matches("ts = " + micros, r));
      assertFalse(matches("ts = " + millis, r));
      assertTrue(matches("tsm = '2024-01-31T10:00:00.123Z' and tsm = " + millis, r));
      assertTrue(matches("tsm > '2024-01-31T10:00:00.122999Z'", r));
    }
    GenericRecord local = TestRows.row(1, "p").set("ts", LocalDateTime.of(2024, 1, 31, 10, 0)).build();
    assertTrue(matches("ts = '2024-01-31T10:00:00Z'", local));
  }

  @Test
  void decimalsEnumsUuidsNumbersAndBooleans() {
    GenericRecord r = TestRows.row(1, "p")
        .set("amount", TestRows.decimal("12.30"))
        .set("color", TestRows.color("GREEN"))
        .set("uid", new Utf8("123e4567-e89b-12d3-a456-426614174000"))
        .set("f", 2.5f)
        .set("d", 1.0)
        .set("l", 7L)
        .set("b", true)
        .build();
    assertTrue(matches("amount = 12.3 and amount > 12 and amount < '12.31' and amount in (1, 12.300)", r));
    assertTrue(matches("color = 'GREEN' and color != 'RED' and color in ('BLUE', 'GREEN')", r));
    assertTrue(matches("uid = '123E4567-E89B-12D3-A456-426614174000'", r));
    assertTrue(matches("f = 2.5 and f > 2 and d = 1 and d < 1.5 and l = 7 and l >= 7.0", r));
    assertTrue(matches("b = true and b != false and b in (true) and b = 'true'", r));
    GenericRecord bigDecimal = TestRows.row(1, "p").set("amount", new BigDecimal("12.30")).build();
    assertTrue(matches("amount = 12.3", bigDecimal));
    GenericRecord enumAsString = TestRows.row(1, "p").set("color", "BLUE").build();
    assertTrue(matches("color < 'GREEN' and color = 'BLUE'", enumAsString));
  }

  @Test
  void recordsOfAnotherSchemaAreReadByFieldName() {
    // Same names, other field order: positions differ from the bound schema.
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : TestRows.SCHEMA.getFields()) {
      fields.add(new Schema.Field(f, f.schema()));
    }
    Collections.reverse(fields);
    Schema reversed = Schema.createRecord("row", null, "other", false, fields);
    GenericRecord r = new GenericData.Record(reversed);
    r.put("id", 9L);
    r.put("part", "p9");
    r.put("s", new Utf8("x"));
    BoundExpression b = ExpressionBinder.bind(ExpressionParser.parse("id = 9 and part = 'p9' and s = 'x' and i is null"),
        TestRows.SCHEMA);
    assertTrue(b.test(r));
    assertTrue(b.test(r));
    assertFalse(b.test(TestRows.row(9, "p9").build()));
  }

  @Test
  void valueOfTheWrongJavaTypeIsBadInput() {
    GenericRecord r = new GenericData.Record(TestRows.SCHEMA);
    r.put("i", "seven");
    SluiceException e = assertThrows(SluiceException.class, () -> matches("i = 7", r));
    assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
    assertTrue(e.getMessage().contains("field 'i'"), e.getMessage());
  }
}
