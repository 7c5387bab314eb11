package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** {@link CsvRecordWriter} output reads back as equal records; quoting follows RFC 4180. */
class CsvRoundTripTest {
  /**
   * AllTypes without its multi-branch union: in CSV every cell is text, so a string "12" and a long 12 in a
   * union [long, string] cannot be told apart (the reader takes the first branch that fits).
   */
  static final Schema CSV_TYPES = AllTypes.without(AllTypes.SCHEMA, "f_union");

  private static Path dir;

  @BeforeContainer
  static void makeDir() throws IOException {
    dir = Files.createTempDirectory("csv-round-trip");
  }

  @AfterContainer
  static void removeDir() throws IOException {
    try (var files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }

  @Provide
  Arbitrary<List<GenericRecord>> batches() {
    return AllTypes.arbitrary(CSV_TYPES).list().ofMinSize(0).ofMaxSize(8);
  }

  @Property(tries = 200, seed = "20261203")
  void writeThenReadGivesEqualRecords(@ForAll("batches") List<GenericRecord> records) throws IOException {
    Path file = Files.createTempFile(dir, "batch", ".csv");
    try (OutputStream out = Files.newOutputStream(file); CsvRecordWriter w = new CsvRecordWriter(out, CSV_TYPES)) {
      for (GenericRecord r : records) {
        w.write(r);
      }
    }
    List<GenericRecord> back = Inputs.readAll(file, InputFormat.CSV, CSV_TYPES);
    assertEquals(records, back);
  }

  @Example
  void quotesOnlyWhereNeeded() throws IOException {
    Schema schema = Inputs.parse("{\"type\":\"record\",\"name\":\"Q\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
        + "{\"name\":\"name\",\"type\":[\"null\",\"string\"]},"
        + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}}]}");
    String[] names = {"plain", "a, b", "say \"hi\"", "two\nlines", "", null};
    StringWriter text = new StringWriter();
    List<GenericRecord> written = new ArrayList<>();
    try (CsvRecordWriter w = new CsvRecordWriter(text, schema)) {
      for (int i = 0; i < names.length; i++) {
        GenericData.Record r = new GenericData.Record(schema);
        r.put("id", (long) i);
        r.put("name", names[i]);
        r.put("tags", new GenericData.Array<>(schema.getField("tags").schema(), i == 1 ? List.of("x", "y") : List.of()));
        w.write(r);
        written.add(r);
      }
    }
    assertEquals("id,name,tags\n"
        + "0,plain,[]\n"
        + "1,\"a, b\",\"[\"\"x\"\",\"\"y\"\"]\"\n"
        + "2,\"say \"\"hi\"\"\",[]\n"
        + "3,\"two\nlines\",[]\n"
        + "4,\"\",[]\n"
        + "5,,[]\n", text.toString());
    Path file = Inputs.write(dir, "q.csv", text.toString());
    assertEquals(written, Inputs.readAll(file, InputFormat.CSV, schema));
  }

  @Example
  void headerIsWrittenEvenWithoutRows() throws IOException {
    StringWriter text = new StringWriter();
    new CsvRecordWriter(text, Inputs.oneField("\"int\"")).close();
    assertEquals("v\n", text.toString());
  }
}
