package dev.sluice.internal.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.MergeMode;
import dev.sluice.api.SluiceException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The keys of {@code hoodie.properties} that Hudi 1.x (table versions 8 and 9) writes differently from 0.x. */
class TableConfigHudi1Test {

  private static TableConfig config(String... keyValues) {
    Map<String, String> m = new HashMap<>(Map.of(TableConfig.NAME, "trips"));
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put(keyValues[i], keyValues[i + 1]);
    }
    return TableConfig.of(m);
  }

  @Test
  void orderingFieldComesFromTheVersion9KeyWhenThePrecombineKeyIsGone() {
    assertEquals(Optional.of("ts"), config("hoodie.table.ordering.fields", "ts").precombineField());
    assertEquals(Optional.of("ts"), config("hoodie.table.precombine.field", "ts").precombineField());
    assertEquals(Optional.empty(), config().precombineField());
    SluiceException e = assertThrows(SluiceException.class,
        () -> config("hoodie.table.ordering.fields", "f1,f2").precombineField());
    assertEquals(SluiceException.Kind.UNSUPPORTED, e.kind());
    assertTrue(e.getMessage().contains("f1,f2"), e.getMessage());
  }

  @Test
  void mergeModeComesFromTheMergeModeKeyElseThePayloadClass() {
    assertEquals(MergeMode.COMMIT_TIME_ORDERING, config("hoodie.record.merge.mode", "COMMIT_TIME_ORDERING",
        "hoodie.compaction.payload.class", MergeMode.EVENT_TIME_ORDERING.payloadClass()).mergeMode());
    assertEquals(MergeMode.EVENT_TIME_ORDERING, config("hoodie.record.merge.mode", "EVENT_TIME_ORDERING").mergeMode());
    assertTrue(config("hoodie.record.merge.mode", "EVENT_TIME_ORDERING").hasMergeMode());
    assertEquals(MergeMode.EVENT_TIME_ORDERING,
        config("hoodie.compaction.payload.class", MergeMode.EVENT_TIME_ORDERING.payloadClass()).mergeMode());
    assertFalse(config().hasMergeMode());
    SluiceException custom = assertThrows(SluiceException.class, () -> config("hoodie.record.merge.mode", "CUSTOM",
        "hoodie.compaction.payload.class", "com.example.MyPayload").mergeMode());
    assertEquals(SluiceException.Kind.UNSUPPORTED, custom.kind());
    assertTrue(custom.getMessage().contains("com.example.MyPayload"), custom.getMessage());
    assertThrows(SluiceException.class, () -> config("hoodie.record.merge.mode", "LATEST").mergeMode());
  }

  @Test
  void partitionFieldsLoseTheKeyGeneratorTypeHudi1Appends() {
    assertEquals(List.of("region", "ts"),
        config("hoodie.table.partition.fields", "region:simple,ts:timestamp").partitionFields());
    assertEquals(List.of("part"), config("hoodie.table.partition.fields", "part").partitionFields());
  }
}
