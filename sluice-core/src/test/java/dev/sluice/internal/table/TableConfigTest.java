package dev.sluice.internal.table;

import dev.sluice.api.TableType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TableConfigTest {
  @Test
  void builderSetsWhatAHudiWriterSetsForANewCowTable() {
    TableConfig c = TableConfig.builder().name("trips").recordKeyFields("uuid").partitionFields("part")
        .precombineField("ts").build();
    Map<String, String> p = c.properties();
    assertEquals("trips", p.get("hoodie.table.name"));
    assertEquals("COPY_ON_WRITE", p.get("hoodie.table.type"));
    assertEquals("6", p.get("hoodie.table.version"));
    assertEquals("1", p.get("hoodie.timeline.layout.version"));
    assertEquals("archived", p.get("hoodie.archivelog.folder"));
    assertEquals("uuid", p.get("hoodie.table.recordkey.fields"));
    assertEquals("part", p.get("hoodie.table.partition.fields"));
    assertEquals("ts", p.get("hoodie.table.precombine.field"));
    assertEquals("false", p.get("hoodie.datasource.write.drop.partition.columns"));
    assertEquals("PARQUET", p.get("hoodie.table.base.file.format"));
    assertEquals("true", p.get("hoodie.populate.meta.fields"));
    assertEquals("false", p.get("hoodie.datasource.write.hive_style_partitioning"));
    assertEquals("false", p.get("hoodie.datasource.write.partitionpath.urlencode"));
    assertEquals("false", p.get("hoodie.partition.metafile.use.base.format"));
    assertEquals("false", p.get("hoodie.table.cdc.enabled"));
    assertEquals("org.apache.hudi.keygen.SimpleKeyGenerator", p.get("hoodie.table.keygenerator.class"));
    assertFalse(p.containsKey("hoodie.compaction.payload.class"), "CoW tables get no payload class by default");
    assertFalse(p.containsKey("hoodie.table.checksum"), "the checksum is added when written");
  }

  @Test
  void typedAccessorsReadTheBuiltValues() {
    TableConfig c = TableConfig.builder().name("t").type(TableType.MERGE_ON_READ).recordKeyFields("a", "b")
        .partitionFields("y", "m").hiveStylePartitioning(true).databaseName("db")
        .timelineTimezone(TimelineTimezone.UTC).build();
    assertEquals("t", c.name());
    assertEquals(TableType.MERGE_ON_READ, c.type());
    assertEquals(List.of("a", "b"), c.recordKeyFields());
    assertEquals(List.of("y", "m"), c.partitionFields());
    assertTrue(c.hiveStylePartitioning());
    assertFalse(c.urlEncodePartitioning());
    assertEquals(Optional.of("db"), c.databaseName());
    assertEquals(TimelineTimezone.UTC, c.timelineTimezone());
    assertEquals(6, c.tableVersion());
    assertEquals("PARQUET", c.baseFileFormat());
    assertTrue(c.populateMetaFields());
    assertEquals(Optional.empty(), c.precombineField());
    assertEquals(List.of(), c.metadataPartitions());
  }

  @Test
  void morTablesGetHudisDefaultPayloadAndMergerStrategy() {
    TableConfig c = TableConfig.builder().name("t").type(TableType.MERGE_ON_READ).recordKeyFields("id").build();
    assertEquals(Optional.of("org.apache.hudi.common.model.OverwriteWithLatestAvroPayload"), c.payloadClass());
    assertEquals(Optional.of("eeb8d96f-b1e4-49fd-bbf8-28ac514178e5"), c.get("hoodie.compaction.record.merger.strategy"));
  }

  @Test
  void aGivenPayloadClassIsRecordedWithTheMergerStrategy() {
    TableConfig c = TableConfig.builder().name("t").recordKeyFields("id")
        .payloadClass("org.apache.hudi.common.model.DefaultHoodieRecordPayload").build();
    assertEquals(Optional.of("org.apache.hudi.common.model.DefaultHoodieRecordPayload"), c.payloadClass());
    assertEquals(Optional.of(TableConfig.DEFAULT_MERGER_STRATEGY), c.get(TableConfig.RECORD_MERGER_STRATEGY));
  }

  @Test
  void keyGeneratorFollowsHudisInferenceFromFieldCounts() {
    assertEquals(TableConfig.SIMPLE_KEYGEN, keygen(List.of("k"), List.of("p")));
    assertEquals(TableConfig.COMPLEX_KEYGEN, keygen(List.of("k1", "k2"), List.of("p")));
    assertEquals(TableConfig.COMPLEX_KEYGEN, keygen(List.of("k"), List.of("p1", "p2")));
    assertEquals(TableConfig.NONPARTITIONED_KEYGEN, keygen(List.of("k"), List.of()));
    assertEquals(TableConfig.NONPARTITIONED_KEYGEN, keygen(List.of("k1", "k2"), List.of()));
    assertEquals("x.MyKeyGen", TableConfig.builder().name("t").recordKeyFields("k").keyGeneratorClass("x.MyKeyGen")
        .build().keyGeneratorClass().orElseThrow());
  }

  @Test
  void plainKeyFieldOnlyWhereTheKeyGeneratorWritesTheValueItself() {
    // Sluice's inferred key generators: simple and non-partitioned write a one-field key as the value itself
    assertEquals(Optional.of("k"), TableConfig.builder().name("t").recordKeyFields("k").partitionFields("p").build()
        .plainKeyField());
    assertEquals(Optional.of("k"), TableConfig.builder().name("t").recordKeyFields("k").build().plainKeyField());
    TableConfig simple = TableConfig.builder().name("t").recordKeyFields("k").partitionFields("p").build()
        .without(TableConfig.KEY_GENERATOR_CLASS);
    assertEquals(Optional.empty(), simple.plainKeyField(), "no key generator recorded: not assumed");
    assertEquals(Optional.of("k"), simple.with(TableConfig.KEY_GENERATOR_TYPE, "SIMPLE").plainKeyField());
    assertEquals(Optional.of("k"), simple.with(TableConfig.KEY_GENERATOR_CLASS,
        "org.apache.hudi.keygen.SimpleAvroKeyGenerator").plainKeyField());
    // a complex key generator may write field:value, a custom or timestamp one something else
    assertEquals(Optional.empty(), simple.with(TableConfig.KEY_GENERATOR_TYPE, "COMPLEX").plainKeyField());
    assertEquals(Optional.empty(), simple.with(TableConfig.KEY_GENERATOR_TYPE, "TIMESTAMP").plainKeyField());
    assertEquals(Optional.empty(), simple.with(TableConfig.KEY_GENERATOR_CLASS, "x.MyKeyGen").plainKeyField());
    assertEquals(Optional.empty(), TableConfig.builder().name("t").recordKeyFields("k1", "k2").partitionFields("p")
        .build().with(TableConfig.KEY_GENERATOR_TYPE, "SIMPLE").plainKeyField());
    assertEquals(Optional.empty(), TableConfig.builder().name("t").recordKeyFields("a.k").partitionFields("p").build()
        .plainKeyField(), "a nested key field");
  }

  private static String keygen(List<String> keys, List<String> parts) {
    return TableConfig.builder().name("t").recordKeyFields(keys).partitionFields(parts).build()
        .keyGeneratorClass().orElseThrow();
  }

  @Test
  void nonPartitionedTableHasNoPartitionFields() {
    TableConfig c = TableConfig.builder().name("t").recordKeyFields("id").build();
    assertEquals(List.of(), c.partitionFields());
    assertFalse(c.isPartitioned());
  }

  @Test
  void withAndWithoutReturnChangedCopies() {
    TableConfig c = TableConfig.builder().name("t").recordKeyFields("id").build();
    TableConfig d = c.with("x.y", "1");
    assertEquals(Optional.of("1"), d.get("x.y"));
    assertEquals(Optional.empty(), c.get("x.y"));
    assertEquals(Optional.empty(), d.without("x.y").get("x.y"));
    assertEquals(c, d.without("x.y"));
  }

  @Test
  void absentKeysGetHudisDefaults() {
    TableConfig c = TableConfig.of(Map.of("hoodie.table.name", "old"));
    assertEquals(TableType.COPY_ON_WRITE, c.type());
    assertEquals(0, c.tableVersion());
    assertEquals("PARQUET", c.baseFileFormat());
    assertTrue(c.populateMetaFields());
    assertFalse(c.hiveStylePartitioning());
    assertEquals(TimelineTimezone.LOCAL, c.timelineTimezone());
    assertEquals("archived", c.archiveLogFolder());
  }

  @Test
  void badValuesAreConfigErrors() {
    SluiceException e = assertThrows(SluiceException.class,
        () -> TableConfig.of(Map.of("hoodie.table.name", "t", "hoodie.table.type", "SIDEWAYS")).type());
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    assertThrows(SluiceException.class, () -> TableConfig.of(Map.of("hoodie.table.type", "COPY_ON_WRITE")));
    assertThrows(SluiceException.class, () -> TableConfig.builder().recordKeyFields("k").build());
  }
}
