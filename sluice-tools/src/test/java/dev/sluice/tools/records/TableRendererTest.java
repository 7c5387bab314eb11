package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.SluiceException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class TableRendererTest {
  private static final Schema SCHEMA = SchemaDdl.parse(
      "id long not null, name string, amount decimal(8,2), ts timestamp, tags map<string,int>", "Row");

  private static GenericRecord row(long id, String name, String amount, Long ts, Map<String, Object> tags) {
    GenericData.Record r = new GenericData.Record(SCHEMA);
    r.put("id", id);
    r.put("name", name);
    Schema dec = SCHEMA.getField("amount").schema().getTypes().get(1);
    r.put("amount", amount == null ? null : new Conversions.DecimalConversion().toBytes(new BigDecimal(amount), dec,
        dec.getLogicalType()));
    r.put("ts", ts);
    r.put("tags", tags);
    return r;
  }

  @Test
  void alignsColumnsAndRightAlignsNumbers() {
    List<GenericRecord> rows = List.of(
        row(1, "alice", "10.50", 0L, Map.of("a", 1)),
        row(22, null, "-3.00", null, null),
        row(333, "bob\nby", null, 1_000_000L, Map.of()));
    String out = TableRenderer.withDefaults().render(List.of("id", "name", "amount", "ts", "tags"), rows);
    assertEquals(String.join("\n",
        " id | name    | amount | ts                          | tags",
        "----+---------+--------+-----------------------------+--------",
        "  1 | alice   |  10.50 | 1970-01-01T00:00:00.000000Z | {\"a\":1}",
        " 22 | null    |  -3.00 | null                        | null",
        "333 | bob\\nby |   null | 1970-01-01T00:00:01.000000Z | {}",
        ""), out);
  }

  @Test
  void truncatesLongValuesWithAnEllipsisAndShowsChosenColumns() {
    List<GenericRecord> rows = List.of(row(7, "a very long name indeed", "1.00", null, null));
    String out = new TableRenderer(10).render(List.of("name", "id"), rows);
    assertEquals(String.join("\n",
        "name       | id",
        "-----------+---",
        "a very lo… |  7",
        ""), out);
  }

  @Test
  void emptyResultHasHeaderOnlyAndUnknownColumnIsAnError() throws IOException {
    assertEquals("id | name\n---+-----\n", TableRenderer.withDefaults().render(List.of("id", "name"), List.of()));
    assertThrows(SluiceException.class, () -> TableRenderer.withDefaults().render(List.of("nope"), List.of(row(1, "a", null, null, null))));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (RecordFormatter f = TableRenderer.withDefaults().formatter(bytes, List.of("id"))) {
      f.write(row(5, "x", null, null, null));
    }
    assertEquals("id\n--\n 5\n", bytes.toString(StandardCharsets.UTF_8));
  }
}
