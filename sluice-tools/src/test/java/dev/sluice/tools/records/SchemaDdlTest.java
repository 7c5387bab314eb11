package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SchemaDdlTest {
  private static Schema nullable(String typeJson) {
    return Inputs.parse("[\"null\", " + typeJson + "]");
  }

  private static Schema type(String json) {
    return Inputs.parse(json);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "string           | \"string\"",
      "STRING           | \"string\"",
      "int              | \"int\"",
      "integer          | \"int\"",
      "long             | \"long\"",
      "bigint           | \"long\"",
      "float            | \"float\"",
      "double           | \"double\"",
      "boolean          | \"boolean\"",
      "bool             | \"boolean\"",
      "bytes            | \"bytes\"",
      "binary           | \"bytes\"",
      "date             | {\"type\":\"int\",\"logicalType\":\"date\"}",
      "timestamp        | {\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}",
      "timestamp_micros | {\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}",
      "timestamp_millis | {\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}",
      "timestamp_ntz    | {\"type\":\"long\",\"logicalType\":\"local-timestamp-micros\"}",
      "time             | {\"type\":\"long\",\"logicalType\":\"time-micros\"}",
      "time_millis      | {\"type\":\"int\",\"logicalType\":\"time-millis\"}",
      "uuid             | {\"type\":\"string\",\"logicalType\":\"uuid\"}",
      "decimal(10,2)    | {\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":10,\"scale\":2}",
      "decimal( 38 , 0 )| {\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":38,\"scale\":0}",
      "decimal(5)       | {\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":5,\"scale\":0}",
      "array<string>    | {\"type\":\"array\",\"items\":[\"null\",\"string\"]}",
      "array<int not null> | {\"type\":\"array\",\"items\":\"int\"}",
      "map<string,long> | {\"type\":\"map\",\"values\":[\"null\",\"long\"]}",
      "map<string, array<date not null> not null> | {\"type\":\"map\",\"values\":{\"type\":\"array\","
          + "\"items\":{\"type\":\"int\",\"logicalType\":\"date\"}}}",
  })
  void everyTypeIsNullableByDefault(String ddl, String expectedJson) {
    Schema s = SchemaDdl.parse("c " + ddl, "R");
    Schema.Field f = s.getField("c");
    assertEquals(nullable(expectedJson), f.schema());
    assertTrue(f.hasDefaultValue());
    assertEquals(null, f.defaultVal() == org.apache.avro.JsonProperties.NULL_VALUE ? null : "non-null default");
    Schema required = SchemaDdl.parse("c " + ddl + " NOT NULL", "R");
    assertEquals(type(expectedJson), required.getField("c").schema());
    assertFalse(required.getField("c").hasDefaultValue());
  }

  @Test
  void parsesTheBriefExample() {
    Schema s = SchemaDdl.parse("id string, ts long, amount decimal(10,2), tags array<string>, attrs map<string,string>, "
        + "addr struct<city:string,zip:int>, d date, t timestamp, u uuid, b bytes, ok boolean, n int not null",
        "hoodie.trips.trips_record");
    assertEquals("hoodie.trips.trips_record", s.getFullName());
    assertEquals(List.of("id", "ts", "amount", "tags", "attrs", "addr", "d", "t", "u", "b", "ok", "n"),
        s.getFields().stream().map(Schema.Field::name).toList());
    Schema addr = s.getField("addr").schema().getTypes().get(1);
    assertEquals(Schema.Type.RECORD, addr.getType());
    assertEquals("hoodie.trips.trips_record.addr", addr.getFullName(), "nested records are named after their column");
    assertEquals(nullable("\"string\""), addr.getField("city").schema());
    assertEquals(nullable("\"int\""), addr.getField("zip").schema());
    assertEquals(type("\"int\""), s.getField("n").schema());
    // The schema is valid Avro: it survives printing and parsing.
    assertEquals(s, new Schema.Parser().parse(s.toString()));
  }

  @Test
  void nestedStructsGetDistinctNames() {
    Schema s = SchemaDdl.parse("a struct<x: struct<y:int>, z: array<struct<w:string not null>>>, b array<struct<x:int>>", "R");
    assertEquals(s, new Schema.Parser().parse(s.toString()));
    Schema a = s.getField("a").schema().getTypes().get(1);
    Schema x = a.getField("x").schema().getTypes().get(1);
    assertEquals("R.a.x", x.getFullName());
    Schema w = a.getField("z").schema().getTypes().get(1).getElementType().getTypes().get(1);
    assertEquals(type("\"string\""), w.getField("w").schema());
  }

  @Test
  void formatThenParseGivesTheSameSchema() {
    Schema s = SchemaDdl.parse("id string not null, ts timestamp, ms timestamp_millis, l timestamp_ntz, amount decimal(10,2), "
        + "tags array<string not null>, attrs map<string,struct<k:int, v:array<double>>>, d date not null, t time, tm time_millis, "
        + "u uuid, b bytes, ok boolean, f float, g double, n int not null, big long", "R");
    String ddl = SchemaDdl.format(s);
    assertEquals(s, SchemaDdl.parse(ddl, "R"), ddl);
    assertTrue(ddl.startsWith("id string not null, ts timestamp, ms timestamp_millis, "), ddl);
  }

  private static String error(String ddl) {
    SluiceException e = assertThrows(SluiceException.class, () -> SchemaDdl.parse(ddl, "R"));
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    return e.getMessage();
  }

  @Test
  void errorsNameTheColumnAndPosition() {
    assertEquals("Invalid column list: unknown type 'strng' in column 'name' at position 15. Use one of: string, int, long, float, "
        + "double, boolean, bytes, date, timestamp, timestamp_millis, timestamp_ntz, time, time_millis, uuid, decimal(p,s), "
        + "array<T>, map<string,T>, struct<name:T,...>.", error("id long, name strng"));
    assertTrue(error("id").startsWith("Invalid column list: expected a type in column 'id' at position 3."), error("id"));
    assertTrue(error("id long name string").startsWith("Invalid column list: expected a comma before the next column, found 'n' "
        + "in column 'id' at position 9."), error("id long name string"));
    assertTrue(error("a decimal(40,2)").contains("decimal(40,2) is out of range in column 'a' at position 11"));
    assertTrue(error("a decimal(4,5)").contains("decimal(4,5) is out of range"));
    assertTrue(error("a decimal").contains("expected '(' after decimal"));
    assertTrue(error("m map<int,string>").contains("map keys must be string in column 'm' at position 7"));
    assertTrue(error("a array<string").contains("expected '>' to close array<...> in column 'a'"));
    assertTrue(error("s struct<x:int, y:bogus>").contains("unknown type 'bogus' in column 's.y' at position 19"));
    assertTrue(error("id int, ID string").contains("column 'ID' is given twice"));
    assertTrue(error("1x int").contains("expected a column name, found '1' at position 1"));
    assertTrue(error("n int not nul").contains("expected 'null' after 'not' in column 'n'"));
    assertTrue(error("").contains("no columns"));
    assertTrue(error("s struct<>").contains("a struct needs at least one field"));
  }

  @Test
  void invalidRecordNameIsAConfigError() {
    SluiceException e = assertThrows(SluiceException.class, () -> SchemaDdl.parse("id int", "my-table"));
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    assertTrue(e.getMessage().startsWith("Invalid record name 'my-table'"), e.getMessage());
  }

  @Test
  void requireFieldsMakesKeyFieldsNonNull() {
    Schema s = SchemaDdl.parse("id string, ts timestamp, addr struct<city:string, zip:int>, note string", "R");
    Schema r = SchemaDdl.requireFields(s, List.of("id", "addr.city", "ts"));
    assertEquals(type("\"string\""), r.getField("id").schema());
    assertFalse(r.getField("id").hasDefaultValue(), "a null default is dropped");
    assertEquals(type("{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}"), r.getField("ts").schema());
    Schema addr = r.getField("addr").schema();
    assertEquals(Schema.Type.RECORD, addr.getType(), "records on the path become non-null");
    assertEquals(type("\"string\""), addr.getField("city").schema());
    assertEquals(nullable("\"int\""), addr.getField("zip").schema(), "other fields keep their nullability");
    assertEquals(s.getField("note").schema(), r.getField("note").schema());
    assertEquals(r, new Schema.Parser().parse(r.toString()));
    assertEquals(s, SchemaDdl.parse("id string, ts timestamp, addr struct<city:string, zip:int>, note string", "R"),
        "the input schema is unchanged");
  }

  @Test
  void requireFieldsRejectsUnknownFields() {
    Schema s = SchemaDdl.parse("id string, addr struct<city:string>", "R");
    SluiceException e = assertThrows(SluiceException.class, () -> SchemaDdl.requireFields(s, List.of("uuid")));
    assertEquals("Cannot use field 'uuid': the schema has no field 'uuid'. Use one of: id, addr.", e.getMessage());
    e = assertThrows(SluiceException.class, () -> SchemaDdl.requireFields(s, List.of("addr.town")));
    assertEquals("Cannot use field 'addr.town': the schema has no field 'town' in 'addr'. Use one of: city.", e.getMessage());
    e = assertThrows(SluiceException.class, () -> SchemaDdl.requireFields(s, List.of("id.x")));
    assertTrue(e.getMessage().contains("'id' is not a struct"), e.getMessage());
  }
}
