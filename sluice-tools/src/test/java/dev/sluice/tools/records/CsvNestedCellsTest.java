package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * CSV cells of records, arrays and maps are the JSON text of the value alone ({@link JsonRecordWriter#toJson}), also
 * when one writer writes many of them in a row through its reused generator, and after a value that failed.
 */
class CsvNestedCellsTest {
  private static final Schema SCHEMA = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"r\",\"fields\":["
      + "{\"name\":\"id\",\"type\":\"string\"},"
      + "{\"name\":\"addr\",\"type\":{\"type\":\"record\",\"name\":\"a\",\"fields\":[{\"name\":\"street\",\"type\":\"string\"},"
      + "{\"name\":\"zip\",\"type\":\"int\"}]}},"
      + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
      + "{\"name\":\"attrs\",\"type\":[\"null\",{\"type\":\"map\",\"values\":\"long\"}]}]}");

  private static GenericRecord row(int i) {
    GenericRecord addr = new GenericData.Record(SCHEMA.getField("addr").schema());
    addr.put("street", "Main St, " + i + " \"b\"");
    addr.put("zip", i);
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("id", "k" + i);
    r.put("addr", addr);
    r.put("tags", List.of("a" + i, "b,c"));
    r.put("attrs", i % 3 == 0 ? null : Map.of("x", (long) i));
    return r;
  }

  /** The cell as the first CSV writer made it: a fresh generator per value. */
  private static String cell(Schema schema, Object value) throws IOException {
    StringWriter w = new StringWriter();
    CsvRecordWriter.writeCell(w, JsonRecordWriter.toJson(schema, value));
    return w.toString();
  }

  @Test
  void nestedCellsAreEachValuesOwnJson() throws IOException {
    StringWriter out = new StringWriter();
    CsvRecordWriter csv = new CsvRecordWriter(out, SCHEMA);
    StringBuilder expected = new StringBuilder("id,addr,tags,attrs\n");
    for (int i = 0; i < 50; i++) {
      GenericRecord r = row(i);
      csv.write(r);
      expected.append(r.get("id")).append(',').append(cell(SCHEMA.getField("addr").schema(), r.get("addr")))
          .append(',').append(cell(SCHEMA.getField("tags").schema(), r.get("tags"))).append(',')
          .append(r.get("attrs") == null ? "" : cell(SCHEMA.getField("attrs").schema(), r.get("attrs"))).append('\n');
    }
    csv.close();
    assertEquals(expected.toString(), out.toString());
  }

  @Test
  void aValueThatFailsLeavesTheNextCellWhole() {
    CsvRecordWriter.CellWriter attrs = CsvRecordWriter.cellWriter(SCHEMA.getField("attrs").schema());
    assertEquals("{\"x\":1}", attrs.text(Map.of("x", 1L)));
    // a value of the wrong type fails inside the object, the generator half way through it
    org.junit.jupiter.api.Assertions.assertThrows(ClassCastException.class, () -> attrs.text(Map.of("x", "one")));
    assertEquals("{\"y\":2}", attrs.text(Map.of("y", 2L)));
  }
}
