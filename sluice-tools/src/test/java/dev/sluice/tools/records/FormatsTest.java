package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.api.CloseableIterator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Format names, file-name detection, formatter selection, and missing files. */
class FormatsTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @CsvSource({"data.json,JSON", "data.jsonl,JSON", "x.ndjson,JSON", "DATA.JSONL,JSON", "a.b.csv,CSV", "part-0.avro,AVRO",
      "part-0.snappy.parquet,PARQUET", "P.PARQUET,PARQUET"})
  void formatFromFileName(String name, InputFormat expected) {
    assertEquals(expected, InputFormat.fromFileName(name));
  }

  @Test
  void unknownExtensionIsAConfigError() {
    SluiceException e = assertThrows(SluiceException.class, () -> InputFormat.fromFileName("data.txt"));
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    assertTrue(e.getMessage().startsWith("Cannot tell the format of input file data.txt"), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"json,JSON", "jsonl,JSON", "JSON,JSON", "csv,CSV", "avro,AVRO", "Parquet,PARQUET"})
  void parseFormatName(String name, InputFormat expected) {
    assertEquals(expected, InputFormat.parse(name));
  }

  @Test
  void unknownFormatNames() {
    assertEquals(SluiceException.Kind.BAD_CONFIG, assertThrows(SluiceException.class, () -> InputFormat.parse("xml")).kind());
    assertEquals(SluiceException.Kind.BAD_CONFIG, assertThrows(SluiceException.class, () -> OutputFormat.parse("xml")).kind());
    assertEquals(OutputFormat.JSONL, OutputFormat.parse("json"));
    assertEquals(OutputFormat.TABLE, OutputFormat.parse("Table"));
  }

  @ParameterizedTest
  @EnumSource(InputFormat.class)
  void missingFileIsAStorageError(InputFormat format) {
    Path missing = dir.resolve("nope." + format.name().toLowerCase());
    SluiceException e = assertThrows(SluiceException.class,
        () -> RecordSources.open(missing, format, AllTypes.SCHEMA, InputOptions.defaults()).close());
    assertEquals(SluiceException.Kind.STORAGE, e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
  }

  @Test
  void openByFileNamePicksTheFormat() {
    Schema schema = Inputs.oneField("\"long\"");
    Path csv = Inputs.write(dir, "n.csv", "v\n5\n");
    assertEquals(5L, Inputs.readAll(csv, InputFormat.CSV, schema).get(0).get("v"));
    try (CloseableIterator<GenericRecord> it = RecordSources.open(csv, schema, InputOptions.defaults())) {
      assertEquals(5L, it.next().get("v"));
      assertFalse(it.hasNext());
    }
  }

  @ParameterizedTest
  @EnumSource(OutputFormat.class)
  void everyOutputFormatWritesWhatItShould(OutputFormat format) throws IOException {
    Schema schema = SchemaDdl.parse("id long not null, name string", "R");
    GenericRecord r = new org.apache.avro.generic.GenericData.Record(schema);
    r.put("id", 1L);
    r.put("name", "a,b");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (RecordFormatter f = RecordFormatter.create(format, out, schema)) {
      f.write(r);
    }
    String text = out.toString(StandardCharsets.UTF_8);
    switch (format) {
      case JSONL:
        assertEquals("{\"id\":1,\"name\":\"a,b\"}\n", text);
        break;
      case CSV:
        assertEquals("id,name\n1,\"a,b\"\n", text);
        break;
      default:
        assertEquals(List.of("id | name", "---+-----", " 1 | a,b"), text.lines().toList());
    }
  }

  @Test
  void writingARecordThatBreaksItsSchemaIsAnInternalError() {
    Schema schema = SchemaDdl.parse("id long not null", "R");
    GenericRecord r = new org.apache.avro.generic.GenericData.Record(schema);
    r.put("id", "not a long");
    for (OutputFormat format : List.of(OutputFormat.JSONL, OutputFormat.CSV)) {
      RecordFormatter f = RecordFormatter.create(format, new ByteArrayOutputStream(), schema);
      SluiceException e = assertThrows(SluiceException.class, () -> f.write(r));
      assertEquals(SluiceException.Kind.INTERNAL, e.kind(), e.getMessage());
    }
  }

  @Test
  void readingStopsAfterAnError() {
    Schema schema = Inputs.oneField("\"long\"");
    Path file = Inputs.write(dir, "e.jsonl", "{\"v\": \"x\"}\n{\"v\": 2}\n");
    try (CloseableIterator<GenericRecord> it = RecordSources.open(file, InputFormat.JSON, schema, InputOptions.defaults())) {
      assertThrows(SluiceException.class, it::hasNext);
      assertFalse(it.hasNext());
    }
  }
}
