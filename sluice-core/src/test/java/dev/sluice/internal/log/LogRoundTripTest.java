package dev.sluice.internal.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.storage.LocalStorage;
import dev.sluice.api.CloseableIterator;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogRoundTripTest {
  @TempDir
  Path dir;

  private final LocalStorage storage = new LocalStorage();

  private AppendResult write(List<LogBlock> blocks) {
    try (LogWriter w = LogWriter.open(storage, dir.toString(), LogFixture.FILE_ID, LogFixture.BASE, "0-0-0", 1 << 30)) {
      return w.appendBlocks(blocks);
    }
  }

  @Test
  void dataBlocksReadBackRecordForRecord() {
    List<GenericRecord> first = LogFixture.trips("a", 50, 1);
    List<GenericRecord> second = LogFixture.trips("b", 7, 2);
    AppendResult res = write(List.of(DataBlock.of("001", LogFixture.SCHEMA, first), DataBlock.of("002", LogFixture.SCHEMA, second)));

    List<LogBlock> blocks = LogFixture.readAll(storage, res.file().path());
    assertEquals(2, blocks.size());
    DataBlock b1 = (DataBlock) blocks.get(0);
    DataBlock b2 = (DataBlock) blocks.get(1);
    assertEquals(LogBlockType.AVRO_DATA_BLOCK, b1.type());
    assertEquals(Optional.of("001"), b1.instantTime());
    assertEquals(Optional.of("002"), b2.instantTime());
    assertEquals(50, b1.recordCount().getAsInt());
    assertEquals(LogFixture.SCHEMA, b1.writerSchema());
    assertEquals(first, LogFixture.records(b1, LogFixture.SCHEMA));
    assertEquals(second, LogFixture.records(b2, LogFixture.SCHEMA));
    assertEquals(0, b1.span().get().offset());
    assertEquals(b1.span().get().end(), b2.span().get().offset());
    assertEquals(res.size(), b2.span().get().end());
  }

  @Test
  void recordsResolveToAReaderSchema() {
    write(List.of(DataBlock.of("001", LogFixture.SCHEMA, LogFixture.trips("a", 3, 9))));
    // drops most fields, adds one with a default
    Schema reader = SchemaBuilder.record("Trip").namespace("test").fields()
        .optionalString("_hoodie_record_key")
        .requiredLong("ts")
        .name("added").type().stringType().stringDefault("dflt")
        .endRecord();
    List<GenericRecord> got = LogFixture.records(LogFixture.readAll(storage, LogFixture.logPath(dir.toString(), 1, "0-0-0")).get(0),
        reader);
    assertEquals(3, got.size());
    for (int i = 0; i < 3; i++) {
      assertEquals(reader, got.get(i).getSchema());
      assertEquals("a" + i, got.get(i).get("_hoodie_record_key").toString());
      assertEquals(9L, got.get(i).get("ts"));
      assertEquals("dflt", got.get(i).get("added").toString());
    }
  }

  @Test
  void anIncompatibleReaderSchemaIsReportedAsSuch() {
    write(List.of(DataBlock.of("001", LogFixture.SCHEMA, LogFixture.trips("a", 1, 9))));
    Schema reader = SchemaBuilder.record("Trip").namespace("test").fields().requiredString("missing_without_default").endRecord();
    LogBlock block = LogFixture.readAll(storage, LogFixture.logPath(dir.toString(), 1, "0-0-0")).get(0);
    SluiceException e = assertThrows(SluiceException.class, () -> LogFixture.records(block, reader));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains("reader schema"), e.getMessage());
  }

  @Test
  void deleteBlocksKeepEveryOrderingValueType() {
    List<DeleteRecord> deletes = List.of(
        new DeleteRecord("k0", "p", null),
        new DeleteRecord("k1", "p", true),
        new DeleteRecord("k2", "p", 42),
        new DeleteRecord("k3", "p", 1L << 40),
        new DeleteRecord("k4", "p", 1.25f),
        new DeleteRecord("k5", "p", -2.5),
        new DeleteRecord("k6", "p", ByteBuffer.wrap(new byte[] {9, 8, 7})),
        new DeleteRecord("k7", "p", new org.apache.avro.util.Utf8("utf8 ordering")),
        new DeleteRecord("k8", "p", LocalDate.of(2024, 2, 29)),
        new DeleteRecord("k9", "p", new BigDecimal("-12345.678")),
        new DeleteRecord("k10", "p", LocalTime.of(13, 14, 15, 123_456_000)),
        new DeleteRecord("k11", "p", Instant.parse("1969-12-31T23:59:59.999999Z")),
        new DeleteRecord(null, null, 0),
        DeleteRecord.of("k13", "p2"));
    AppendResult res = write(List.of(DeleteBlock.of("005", deletes)));
    List<LogBlock> blocks = LogFixture.readAll(storage, res.file().path());
    assertEquals(1, blocks.size());
    DeleteBlock d = assertInstanceOf(DeleteBlock.class, blocks.get(0));
    assertEquals(Optional.of("005"), d.instantTime());
    List<DeleteRecord> got = d.readAll();
    assertEquals(deletes.size(), got.size());
    for (int i = 0; i < deletes.size(); i++) {
      DeleteRecord want = deletes.get(i);
      DeleteRecord have = got.get(i);
      assertEquals(want.recordKey(), have.recordKey());
      assertEquals(want.partitionPath(), have.partitionPath());
      if (want.orderingValue() instanceof BigDecimal dec) {
        assertEquals(dec.setScale(15), have.orderingValue(), "decimals come back at the wrapper's scale 15");
      } else {
        assertEquals(want.orderingValue(), have.orderingValue(), "ordering of " + want.recordKey());
      }
    }
    assertEquals(String.class, got.get(7).orderingValue().getClass());
    assertEquals(Integer.valueOf(0), got.get(13).orderingValue());
  }

  @Test
  void anEmptyDeleteBlockRoundTrips() {
    AppendResult res = write(List.of(DeleteBlock.of("005", List.of())));
    assertEquals(List.of(), ((DeleteBlock) LogFixture.readAll(storage, res.file().path()).get(0)).readAll());
  }

  @Test
  void orderingValuesHudiCannotStoreAreRefused() {
    assertThrows(SluiceException.class, () -> new DeleteRecord("k", "p", (short) 3));
    assertThrows(SluiceException.class, () -> new DeleteRecord("k", "p", new Object()));
    // more than 15 fractional digits would need rounding, as in Hudi
    assertThrows(SluiceException.class, () -> write(List.of(DeleteBlock.of("1", List.of(new DeleteRecord("k", "p",
        new BigDecimal("0.1234567890123456")))))));
  }

  @Test
  void commandBlocksRoundTrip() {
    AppendResult res = write(List.of(CommandBlock.rollback("004", "003")));
    CommandBlock c = assertInstanceOf(CommandBlock.class, LogFixture.readAll(storage, res.file().path()).get(0));
    assertTrue(c.isRollback());
    assertEquals(Optional.of("004"), c.instantTime());
    assertEquals(Optional.of("003"), c.targetInstant());
    assertEquals(Map.of(HeaderKey.INSTANT_TIME, "004", HeaderKey.TARGET_INSTANT_TIME, "003", HeaderKey.COMMAND_BLOCK_TYPE, "0"),
        c.header());
    assertEquals(res.size(), c.span().get().size());
  }

  @Test
  void blockContentsAreReadOnlyWhenAsked() {
    List<GenericRecord> many = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      many.add(LogFixture.trip("key-" + i, "p1", i, i));
    }
    write(List.of(DataBlock.of("001", LogFixture.SCHEMA, many), DeleteBlock.of("001", List.of(DeleteRecord.of("x", "p1"))),
        DataBlock.of("002", LogFixture.SCHEMA, many.subList(0, 10))));
    String path = LogFixture.logPath(dir.toString(), 1, "0-0-0");
    long fileSize = dir.resolve(Path.of(path).getFileName()).toFile().length();
    assertTrue(fileSize > 2_000_000, "a big first block: " + fileSize);

    LogFixture.CountingStorage counting = new LogFixture.CountingStorage();
    List<LogBlock> blocks = LogFixture.readAll(counting.storage(), path);
    assertEquals(3, blocks.size());
    assertTrue(counting.bytesRead.get() < 300_000, "headers only: read " + counting.bytesRead.get() + " of " + fileSize);
    assertEquals(20_000, ((DataBlock) blocks.get(0)).recordCount().getAsInt());

    // the reader is closed; contents are still readable, streamed one record at a time
    int n = 0;
    try (CloseableIterator<GenericRecord> it = ((DataBlock) blocks.get(0)).records(LogFixture.SCHEMA)) {
      while (it.hasNext()) {
        assertEquals("key-" + n, it.next().get("_hoodie_record_key").toString());
        n++;
      }
    }
    assertEquals(20_000, n);
    assertEquals(List.of(DeleteRecord.of("x", "p1")), ((DeleteBlock) blocks.get(1)).readAll());
  }

  @Test
  void aRecordThatDoesNotFitTheWriterSchemaIsRefusedBeforeAnythingIsWritten() {
    GenericRecord bad = LogFixture.trip("k", "p", 1, 1);
    bad.put("id", null);
    SluiceException e = assertThrows(SluiceException.class,
        () -> write(List.of(DataBlock.of("001", LogFixture.SCHEMA, List.of(LogFixture.trip("ok", "p", 1, 1), bad)))));
    assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
    assertTrue(e.getMessage().contains("record 1"), e.getMessage());
    assertFalse(dir.resolve(Path.of(LogFixture.logPath(dir.toString(), 1, "0-0-0")).getFileName()).toFile().exists());
  }

  @Test
  void inMemoryBlocksGiveTheirRecordsToo() {
    List<GenericRecord> recs = LogFixture.trips("m", 2, 3);
    DataBlock b = DataBlock.of("001", LogFixture.SCHEMA, recs);
    assertEquals(recs, LogFixture.records(b, LogFixture.SCHEMA));
    Schema reader = SchemaBuilder.record("Trip").namespace("test").fields().requiredLong("ts").endRecord();
    assertEquals(3L, LogFixture.records(b, reader).get(1).get("ts"));
    assertTrue(b.span().isEmpty());
    assertEquals(LogFixture.SCHEMA.toString(), b.header().get(HeaderKey.SCHEMA));
    assertNull(new CorruptBlock(3, 4).header().get(HeaderKey.INSTANT_TIME));
  }
}
