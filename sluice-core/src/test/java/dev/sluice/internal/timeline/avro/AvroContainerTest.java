package dev.sluice.internal.timeline.avro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.clean.CleanAvro;
import dev.sluice.internal.compact.CompactionPlan;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.savepoint.SavepointMetadata;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class AvroContainerTest {
  private static final InstantInfo TARGET = new InstantInfo("20240101000000001", "deltacommit");

  private static RollbackMetadata rollbackMetadata() {
    PartitionRollback p = new PartitionRollback("p0", List.of("/t/p0/a_0-0-0_20240101000000001.parquet"),
        List.of("/t/p0/b_0-0-0_20240101000000001.parquet"), Map.of("/t/p0/.f_1.log.2_1-0-1", 120L),
        Map.of(".f_1.log.1_0-0-0", 1L));
    return RollbackMetadata.of("20240101000000009", 15, TARGET, List.of(p, PartitionRollback.empty("p1")));
  }

  @Test
  void everyMetadataRoundTripsThroughHudisContainerForm() {
    RollbackPlan plan = new RollbackPlan(TARGET, List.of(RollbackRequest.delete("p0", "/t/p0/a.parquet"),
        RollbackRequest.appendBlock("p1", "f-0", "20230101000000000", Map.of(".f-0_20230101000000000.log.1_0-0-0", 1L))), 1);
    assertEquals(plan, RollbackPlan.fromAvroBytes(plan.toAvroBytes(), "plan"));
    RollbackMetadata md = rollbackMetadata();
    assertEquals(1, md.totalFilesDeleted());
    assertEquals(List.of(TARGET.commitTime()), md.commitsRollback());
    assertEquals(md, RollbackMetadata.fromAvroBytes(md.toAvroBytes(), "md"));
    SavepointMetadata sp = new SavepointMetadata("me", 123L, "", Map.of("p0", List.of("a.parquet")), 1);
    assertEquals(sp, SavepointMetadata.fromAvroBytes(sp.toAvroBytes(), "sp"));
    RestorePlan rp = new RestorePlan(List.of(TARGET), 2, "20230101000000000");
    assertEquals(rp, RestorePlan.fromAvroBytes(rp.toAvroBytes(), "rp"));
    RestoreMetadata rm = new RestoreMetadata("20240101000000010", 20, List.of(TARGET.commitTime()),
        Map.of(TARGET.commitTime(), List.of(md)), 1, List.of(TARGET));
    assertEquals(rm, RestoreMetadata.fromAvroBytes(rm.toAvroBytes(), "rm"));
  }

  @Test
  void theContainerHeaderCarriesHudisModelSchemaUnchanged() throws java.io.IOException {
    byte[] bytes = rollbackMetadata().toAvroBytes();
    try (DataFileReader<GenericRecord> r = new DataFileReader<>(new SeekableByteArrayInput(bytes), new GenericDatumReader<>())) {
      Schema header = new Schema.Parser().parse(r.getMetaString("avro.schema"));
      assertEquals("org.apache.hudi.avro.model.HoodieRollbackMetadata", header.getFullName());
      assertEquals(AvroContainer.schema(AvroContainer.ROLLBACK_METADATA), header);
      assertEquals("null", r.getMetaString("avro.codec") == null ? "null" : r.getMetaString("avro.codec"));
      List<String> fields = header.getFields().stream().map(Schema.Field::name).toList();
      assertEquals(List.of("startRollbackTime", "timeTakenInMillis", "totalFilesDeleted", "commitsRollback",
          "partitionMetadata", "version", "instantsRollback"), fields);
    }
    String magic = new String(bytes, 0, 3, StandardCharsets.ISO_8859_1);
    assertEquals("Obj", magic);
  }

  @Test
  void damagedBytesAreABadTableErrorNamingTheFile() {
    byte[] bytes = rollbackMetadata().toAvroBytes();
    byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length / 2);
    SluiceException e = assertThrows(SluiceException.class, () -> RollbackMetadata.fromAvroBytes(cut, "/t/.hoodie/1.rollback"));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains("/t/.hoodie/1.rollback"), e.getMessage());
  }

  @Test
  void anEmptyFileIsNoContentAndEachActionDecidesWhetherThatIsLegal() {
    byte[] empty = new byte[0];
    Schema plan = AvroContainer.schema(AvroContainer.ROLLBACK_PLAN);
    assertTrue(AvroContainer.read(empty, plan, "/t/.hoodie/1.rollback.requested").isEmpty());
    assertTrue(AvroContainer.read(empty, "/t/.hoodie/1.clean.requested").isEmpty());
    // Hudi leaves a .compaction.requested or .clean.requested empty in some paths: an empty plan, not an error
    assertTrue(CompactionPlan.fromAvroBytes(empty, "/t/.hoodie/2.compaction.requested").operations().isEmpty());
    assertTrue(CleanAvro.decodePlan(empty, "/t", "/t/.hoodie/3.clean.requested").isEmpty());
    assertTrue(CleanAvro.decodeMetadata(empty, "/t/.hoodie/3.clean").isEmpty());
    // a rollback plan or a completed savepoint must hold a record: an empty one is a damaged table, named
    SluiceException e = assertThrows(SluiceException.class,
        () -> RollbackPlan.fromAvroBytes(empty, "/t/.hoodie/1.rollback.requested"));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains("/t/.hoodie/1.rollback.requested"), e.getMessage());
    assertTrue(e.getMessage().contains("empty"), e.getMessage());
    SluiceException s = assertThrows(SluiceException.class,
        () -> SavepointMetadata.fromAvroBytes(empty, "/t/.hoodie/4.savepoint"));
    assertEquals(SluiceException.Kind.BAD_TABLE, s.kind());
    SluiceException g = assertThrows(SluiceException.class, () -> AvroContainer.readRequired(empty, "/t/x"));
    assertEquals(SluiceException.Kind.BAD_TABLE, g.kind());
  }

  @Test
  void aContainerWithoutARecordIsDamagedAsToHudi() throws IOException {
    Schema schema = AvroContainer.schema(AvroContainer.SAVEPOINT_METADATA);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<>(schema))) {
      w.create(schema, out);
    }
    byte[] headerOnly = out.toByteArray();
    assertFalse(headerOnly.length == 0);
    for (SluiceException e : List.of(
        assertThrows(SluiceException.class, () -> AvroContainer.read(headerOnly, schema, "/t/.hoodie/5.savepoint")),
        assertThrows(SluiceException.class, () -> AvroContainer.read(headerOnly, "/t/.hoodie/5.savepoint")),
        assertThrows(SluiceException.class, () -> CleanAvro.decodePlan(headerOnly, "/t", "/t/.hoodie/5.savepoint")))) {
      assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
      assertTrue(e.getMessage().contains("/t/.hoodie/5.savepoint") && e.getMessage().contains("no record"),
          e.getMessage());
    }
  }

  @Test
  void aRecordReadsBackInItsOwnSchemaAndInTheReaderSchema() {
    SavepointMetadata sp = new SavepointMetadata("me", 123L, "why", Map.of("p0", List.of("a.parquet")), 1);
    byte[] bytes = sp.toAvroBytes();
    GenericRecord own = AvroContainer.readRequired(bytes, "sp");
    assertEquals("me", own.get("savepointedBy").toString());
    GenericRecord resolved = AvroContainer.read(bytes, AvroContainer.schema(AvroContainer.SAVEPOINT_METADATA), "sp")
        .orElseThrow();
    assertEquals(123L, resolved.get("savepointedAt"));
    assertEquals(bytes.length, AvroContainer.write(own).length);
  }
}
