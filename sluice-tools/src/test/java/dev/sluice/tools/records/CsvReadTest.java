package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading CSV: header mapping, RFC 4180 quoting, nulls and empty strings, typed cells, and bad input. */
class CsvReadTest {
  @TempDir
  Path dir;

  private static final Schema PEOPLE = Inputs.parse("{\"type\":\"record\",\"name\":\"P\",\"fields\":["
      + "{\"name\":\"id\",\"type\":\"long\"},"
      + "{\"name\":\"name\",\"type\":[\"null\",\"string\"],\"default\":null},"
      + "{\"name\":\"score\",\"type\":[\"null\",\"double\"],\"default\":null},"
      + "{\"name\":\"amount\",\"type\":[\"null\",{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":10,\"scale\":2}],"
      + "\"default\":null},"
      + "{\"name\":\"born\",\"type\":[\"null\",{\"type\":\"int\",\"logicalType\":\"date\"}],\"default\":null},"
      + "{\"name\":\"seen\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}],\"default\":null},"
      + "{\"name\":\"ok\",\"type\":[\"null\",\"boolean\"],\"default\":null},"
      + "{\"name\":\"tags\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],\"default\":null},"
      + "{\"name\":\"addr\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"A\",\"fields\":["
      + "{\"name\":\"city\",\"type\":\"string\"},{\"name\":\"zip\",\"type\":[\"null\",\"int\"],\"default\":null}]}],\"default\":null},"
      + "{\"name\":\"kind\",\"type\":{\"type\":\"enum\",\"name\":\"K\",\"symbols\":[\"A\",\"B\"]},\"default\":\"A\"}"
      + "]}");

  @Test
  void readsTypedCellsInAnyColumnOrder() {
    Path file = Inputs.write(dir, "people.csv", String.join("\n",
        "name,id,score,amount,born,seen,ok,tags,addr,kind",
        "Ann,1,2.5,12.30,2024-01-31,2024-01-31T10:15:30.123456Z,true,\"[\"\"x\"\",\"\"y\"\"]\",\"{\"\"city\"\": \"\"Oslo\"\"}\",B",
        " Bob ,2, 3 ,-0.5,19753,1706696130123456,FALSE,[],,",
        ""));
    List<GenericRecord> rows = Inputs.readAll(file, InputFormat.CSV, PEOPLE);
    assertEquals(2, rows.size());
    GenericRecord ann = rows.get(0);
    assertEquals(1L, ann.get("id"));
    assertEquals("Ann", ann.get("name"));
    assertEquals(2.5, ann.get("score"));
    Schema dec = PEOPLE.getField("amount").schema().getTypes().get(1);
    assertEquals(new Conversions.DecimalConversion().toBytes(new BigDecimal("12.30"), dec, dec.getLogicalType()), ann.get("amount"));
    assertEquals((int) LocalDate.of(2024, 1, 31).toEpochDay(), ann.get("born"));
    assertEquals(ChronoUnit.MICROS.between(Instant.EPOCH, Instant.parse("2024-01-31T10:15:30.123456Z")), ann.get("seen"));
    assertEquals(true, ann.get("ok"));
    assertEquals(List.of("x", "y"), ann.get("tags"));
    GenericRecord addr = (GenericRecord) ann.get("addr");
    assertEquals("Oslo", addr.get("city"));
    assertNull(addr.get("zip"));
    assertEquals("B", ann.get("kind").toString());

    GenericRecord bob = rows.get(1);
    assertEquals(" Bob ", bob.get("name"), "strings keep their spaces");
    assertEquals(3.0, bob.get("score"), "numbers ignore surrounding spaces");
    assertEquals(19753, bob.get("born"));
    assertEquals(1706696130123456L, bob.get("seen"));
    assertEquals(false, bob.get("ok"));
    assertEquals(List.of(), bob.get("tags"));
    assertNull(bob.get("addr"), "an empty unquoted cell is null");
    assertEquals("A", bob.get("kind").toString(), "an empty cell of a non-nullable field takes its default");
  }

  @Test
  void quotedCellsHoldCommasQuotesAndLineBreaksAndLinesStayPhysical() {
    Path file = Inputs.write(dir, "q.csv", "id,name\r\n1,\"a, b\"\r\n2,\"say \"\"hi\"\"\"\r\n3,\"two\nlines\"\r\n4,\"\"\r\n5,\r\nx,z\r\n");
    String msg = Inputs.badInput(file, InputFormat.CSV, Inputs.parse("{\"type\":\"record\",\"name\":\"Q\",\"fields\":["
        + "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"name\",\"type\":[\"null\",\"string\"]}]}"));
    assertEquals("Bad input at q.csv:8, field 'id': \"x\" is not a long; expected a whole number", msg,
        "the cell spanning lines 5-6 moves later records down");
    Path good = Inputs.write(dir, "q2.csv", "id,name\r\n1,\"a, b\"\r\n2,\"say \"\"hi\"\"\"\r\n3,\"two\nlines\"\r\n4,\"\"\r\n5,\r\n");
    List<GenericRecord> rows = Inputs.readAll(good, InputFormat.CSV, Inputs.parse("{\"type\":\"record\",\"name\":\"Q\",\"fields\":["
        + "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"name\",\"type\":[\"null\",\"string\"]}]}"));
    assertEquals("a, b", rows.get(0).get("name"));
    assertEquals("say \"hi\"", rows.get(1).get("name"));
    assertEquals("two\nlines", rows.get(2).get("name"));
    assertEquals("", rows.get(3).get("name"), "\"\" is the empty string");
    assertNull(rows.get(4).get("name"), "an empty unquoted cell is null");
  }

  @Test
  void emptyCells() {
    Schema schema = Inputs.parse("{\"type\":\"record\",\"name\":\"E\",\"fields\":[{\"name\":\"s\",\"type\":\"string\"},"
        + "{\"name\":\"n\",\"type\":[\"null\",\"int\"]},{\"name\":\"b\",\"type\":[\"null\",\"bytes\"]}]}");
    List<GenericRecord> rows = Inputs.readAll(Inputs.write(dir, "e.csv", "s,n,b\n\"\",\"\",\"\"\n"), InputFormat.CSV, schema);
    assertEquals("", rows.get(0).get("s"));
    assertNull(rows.get(0).get("n"), "a quoted empty cell is null for non-string types");
    assertEquals(ByteBuffer.allocate(0), rows.get(0).get("b"), "\"\" is empty bytes");
    String msg = Inputs.badInput(Inputs.write(dir, "e2.csv", "s,n,b\n,1,\n"), InputFormat.CSV, schema);
    assertEquals("Bad input at e2.csv:2, field 's': is empty; expected a string (an empty unquoted cell is null; write \"\" for empty)",
        msg);
  }

  @Test
  void unbalancedQuoteNamesTheLineWhereItOpened() {
    Path file = Inputs.write(dir, "u.csv", "id,name\n1,ok\n2,\"never closed\n3,x\n");
    String msg = Inputs.badInput(file, InputFormat.CSV, PEOPLE);
    assertTrue(msg.startsWith("Bad input at u.csv:3: a quoted value is never closed"), msg);
    msg = Inputs.badInput(Inputs.write(dir, "after.csv", "id,name\n1,\"a\"b\n"), InputFormat.CSV, PEOPLE);
    assertTrue(msg.startsWith("Bad input at after.csv:2: unexpected text after the closing quote"), msg);
  }

  @Test
  void headerWithUnknownColumnIsAnErrorUnlessIgnored() {
    Path file = Inputs.write(dir, "h.csv", "id,nmae,score\n1,typo,2\n");
    String msg = Inputs.badInput(file, InputFormat.CSV, PEOPLE);
    assertTrue(msg.startsWith("Bad input at h.csv:1, field 'nmae': the header names a column that is not a field of the table"),
        msg);
    List<GenericRecord> rows = Inputs.readAll(file, InputFormat.CSV, PEOPLE, InputOptions.defaults().withIgnoreUnknownFields(true));
    assertEquals(1L, rows.get(0).get("id"));
    assertNull(rows.get(0).get("name"), "missing nullable column is null");
    assertEquals(2.0, rows.get(0).get("score"));
    assertEquals("A", rows.get(0).get("kind").toString(), "missing column with a default takes it");
  }

  @Test
  void headerMissingARequiredColumnOrNamingOneTwice() {
    String msg = Inputs.badInput(Inputs.write(dir, "m.csv", "name\nAnn\n"), InputFormat.CSV, PEOPLE);
    assertEquals("Bad input at m.csv:1, field 'id': the header has no column for this field; "
        + "expected a column for every field that is not nullable and has no default", msg);
    msg = Inputs.badInput(Inputs.write(dir, "d.csv", "id,name,id\n1,a,1\n"), InputFormat.CSV, PEOPLE);
    assertTrue(msg.startsWith("Bad input at d.csv:1, field 'id': the header names this column twice"), msg);
  }

  @Test
  void wrongCellCountAndBadValues() {
    String msg = Inputs.badInput(Inputs.write(dir, "c.csv", "id,name\n1,a\n2,b,extra\n"), InputFormat.CSV, PEOPLE);
    assertEquals("Bad input at c.csv:3: the line has 3 values but the header has 2 columns; "
        + "expected one value per header column (quote values that contain commas)", msg);
    msg = Inputs.badInput(Inputs.write(dir, "k.csv", "id,kind\n1,C\n"), InputFormat.CSV, PEOPLE);
    assertEquals("Bad input at k.csv:2, field 'kind': \"C\" is not a symbol of enum K; expected one of [A, B]", msg);
    msg = Inputs.badInput(Inputs.write(dir, "j.csv", "id,addr\n1,\"{\"\"city\"\": 3}\"\n"), InputFormat.CSV, PEOPLE);
    assertEquals("Bad input at j.csv:2, field 'addr.city': 3 is not a string; expected a string", msg);
    msg = Inputs.badInput(Inputs.write(dir, "bj.csv", "id,tags\n1,[oops\n"), InputFormat.CSV, PEOPLE);
    assertTrue(msg.startsWith("Bad input at bj.csv:2, field 'tags': \"[oops\" is not valid JSON"), msg);
    msg = Inputs.badInput(Inputs.write(dir, "i.csv", "id\n99999999999999999999\n"), InputFormat.CSV, PEOPLE);
    assertTrue(msg.contains("is out of range for a long"), msg);
  }

  @Test
  void emptyFileAndHeaderOnly() {
    String msg = Inputs.badInput(Inputs.write(dir, "empty.csv", ""), InputFormat.CSV, PEOPLE);
    assertTrue(msg.startsWith("Bad input at empty.csv:1: the file is empty"), msg);
    assertEquals(List.of(), Inputs.readAll(Inputs.write(dir, "header.csv", "\uFEFFid,name\n"), InputFormat.CSV, PEOPLE));
  }

  @Test
  void invalidUtf8IsBadInput() throws java.io.IOException {
    Path file = dir.resolve("bin.csv");
    java.nio.file.Files.write(file, new byte[] {'i', 'd', '\n', '1', '\n', (byte) 0xC3, (byte) 0x28, '\n'});
    String msg = Inputs.badInput(file, InputFormat.CSV, PEOPLE);
    assertTrue(msg.startsWith("Bad input at bin.csv: the file is not valid UTF-8 (the bad bytes are at or after line 1)"), msg);
  }

  @Test
  void mapCellsAreJsonObjects() {
    Schema schema = Inputs.oneField("{\"type\":\"map\",\"values\":\"long\"}");
    List<GenericRecord> rows = Inputs.readAll(Inputs.write(dir, "map.csv", "v\n\"{\"\"a\"\": 1, \"\"b\"\": 2}\"\n"),
        InputFormat.CSV, schema);
    assertEquals(Map.of("a", 1L, "b", 2L), rows.get(0).get("v"));
  }
}
