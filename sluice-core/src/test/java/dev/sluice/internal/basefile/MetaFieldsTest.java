package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class MetaFieldsTest {
  private static final Schema USER = new Schema.Parser().parse("""
      {"type":"record","name":"trip","namespace":"ns","doc":"a trip","my.prop":"v","fields":[
        {"name":"uuid","type":"string","doc":"id","field.prop":1},
        {"name":"_hoodie_is_deleted","type":"boolean","default":false},
        {"name":"fare","type":["null","double"],"default":null}]}""");

  @Test
  void metaFieldsComeFirstInHudisForm() throws java.io.IOException {
    Schema s = MetaFields.withMetaFields(USER);
    assertEquals(List.of("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key",
        "_hoodie_partition_path", "_hoodie_file_name", "uuid", "_hoodie_is_deleted", "fare"),
        s.getFields().stream().map(Schema.Field::name).toList());
    assertEquals(MetaFields.ALL, s.getFields().subList(0, 5).stream().map(Schema.Field::name).toList());
    JsonNode json = new ObjectMapper().readTree(s.toString());
    for (int i = 0; i < 5; i++) {
      assertEquals(new ObjectMapper().readTree("{\"name\":\"" + MetaFields.ALL.get(i)
          + "\",\"type\":[\"null\",\"string\"],\"doc\":\"\",\"default\":null}"), json.get("fields").get(i));
    }
    assertEquals("trip", s.getName());
    assertEquals("ns", s.getNamespace());
    assertEquals("a trip", s.getDoc());
    assertEquals("v", s.getProp("my.prop"));
    assertEquals(1, s.getField("uuid").getObjectProp("field.prop"));
    assertEquals("id", s.getField("uuid").doc());
    assertTrue(s.getField("fare").hasDefaultValue());
  }

  @Test
  void addingIsIdempotentAndRemovingUndoesIt() {
    Schema once = MetaFields.withMetaFields(USER);
    assertEquals(once, MetaFields.withMetaFields(once));
    assertEquals(once.toString(), MetaFields.withMetaFields(once).toString());
    Schema back = MetaFields.withoutMetaFields(once);
    assertEquals(USER, back);
    assertEquals(USER, MetaFields.withoutMetaFields(USER));
  }

  @Test
  void metaFieldsInsideTheUserSchemaMoveToTheFront() {
    Schema odd = new Schema.Parser().parse("""
        {"type":"record","name":"r","fields":[{"name":"a","type":"int"},
          {"name":"_hoodie_record_key","type":["null","string"],"doc":"","default":null},
          {"name":"_hoodie_operation","type":["null","string"],"default":null}]}""");
    Schema s = MetaFields.withMetaFields(odd);
    assertEquals(6, s.getFields().size());
    assertEquals("a", s.getFields().get(5).name());
    assertTrue(MetaFields.isMetaField("_hoodie_operation"));
    assertFalse(MetaFields.isMetaField(MetaFields.IS_DELETED));
  }

  @Test
  void seqNoFormat() {
    assertEquals("20261201184823102_0_0", MetaFields.seqNo("20261201184823102", 0, 0));
    assertEquals("20261201184823102_3_12345678901", MetaFields.seqNo("20261201184823102", 3, 12_345_678_901L));
  }

  @Test
  void onlyRecordsHaveMetaFields() {
    assertThrows(IllegalArgumentException.class, () -> MetaFields.withMetaFields(Schema.create(Schema.Type.INT)));
  }
}
