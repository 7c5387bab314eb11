package dev.sluice.internal.merge;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.junit.jupiter.api.Test;

class DeleteFlagTest {
  private static final Schema WITH = SchemaBuilder.record("r").fields()
      .requiredString("id").optionalBoolean("_hoodie_is_deleted").endRecord();
  /** The flag at another position: a record of this schema must not be read at WITH's position. */
  private static final Schema MOVED = SchemaBuilder.record("r").fields()
      .optionalBoolean("_hoodie_is_deleted").requiredString("id").endRecord();
  private static final Schema WITHOUT = SchemaBuilder.record("r").fields().requiredString("id").endRecord();

  private static GenericData.Record record(Schema s, Boolean deleted) {
    GenericData.Record r = new GenericData.Record(s);
    r.put("id", "k");
    if (s.getField("_hoodie_is_deleted") != null) {
      r.put("_hoodie_is_deleted", deleted);
    }
    return r;
  }

  @Test
  void readsTheFlagInTheExpectedSchemaAndInOthers() {
    DeleteFlag flag = DeleteFlag.of(WITH);
    assertTrue(flag.isSet(record(WITH, true)));
    assertFalse(flag.isSet(record(WITH, false)));
    assertFalse(flag.isSet(record(WITH, null)));
    assertTrue(flag.isSet(record(MOVED, true)));
    assertFalse(flag.isSet(record(MOVED, false)));
    assertFalse(flag.isSet(record(WITHOUT, null)));
    assertFalse(DeleteFlag.of(WITHOUT).isSet(record(WITHOUT, null)));
    assertTrue(DeleteFlag.of(WITHOUT).isSet(record(WITH, true)));
  }
}
