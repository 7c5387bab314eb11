package dev.sluice.internal.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.api.SluiceException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CommitMetadataTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = CommitMetadataTest.class.getResourceAsStream(name)) {
      return in.readAllBytes();
    }
  }

  /** Asserts that two JSON trees have equal values and the same field order everywhere. */
  private static void assertSameJson(JsonNode expected, JsonNode actual, String at) {
    assertEquals(expected.getNodeType(), actual.getNodeType(), at);
    if (expected.isObject()) {
      List<String> e = new ArrayList<>();
      expected.fieldNames().forEachRemaining(e::add);
      List<String> a = new ArrayList<>();
      actual.fieldNames().forEachRemaining(a::add);
      assertEquals(e, a, "field order at " + at);
      for (String f : e) {
        assertSameJson(expected.get(f), actual.get(f), at + "." + f);
      }
    } else if (expected.isArray()) {
      assertEquals(expected.size(), actual.size(), at);
      for (int i = 0; i < expected.size(); i++) {
        assertSameJson(expected.get(i), actual.get(i), at + "[" + i + "]");
      }
    } else {
      assertEquals(expected, actual, at);
    }
  }

  @Test
  void observedCowInsertReserializesWithHudisFieldOrder() throws IOException {
    byte[] json = resource("observed-cow-insert.json");
    CommitMetadata md = CommitMetadata.fromJson(json);
    assertEquals(WriteOperationType.INSERT, md.operationType());
    assertFalse(md.compacted());
    WriteStat s = md.partitionToWriteStats().get("p1").get(0);
    assertEquals("35cb031b-b41b-4083-baf4-6c202b66d97c-0", s.fileId());
    assertEquals(WriteStat.NULL_COMMIT, s.prevCommit());
    assertEquals(434864, s.fileSizeInBytes());
    assertEquals(Optional.of(new WriteStat.RuntimeStats(0, 0, 1212)), s.runtimeStats());
    assertFalse(s.delta());
    assertTrue(md.schema().orElseThrow().contains("\"name\":\"trip\""));
    assertEquals(2, md.totalRecordsWritten());
    assertEquals(434864, md.totalBytesWritten());
    assertSameJson(MAPPER.readTree(json), MAPPER.readTree(md.toJson()), "$");
  }

  @Test
  void observedMorDeltaCommitKeepsTheDeltaFields() throws IOException {
    byte[] json = resource("observed-mor-deltacommit.json");
    CommitMetadata md = CommitMetadata.fromJson(json);
    WriteStat s = md.allStats().get(0);
    assertTrue(s.delta());
    assertEquals(1, s.logVersion());
    assertEquals(0, s.logOffset());
    assertEquals("589cff81-1251-414b-9946-8a3b20d9ccf6-0_0-0-0_20261201184916996.parquet", s.baseFile());
    assertEquals(List.of(".589cff81-1251-414b-9946-8a3b20d9ccf6-0_20261201184916996.log.1_0-0-0"), s.logFiles());
    assertEquals("20261201184916996", s.prevCommit());
    assertEquals(WriteOperationType.UPSERT, md.operationType());
    JsonNode out = MAPPER.readTree(md.toJson());
    assertSameJson(MAPPER.readTree(json), out, "$");
    assertTrue(out.at("/partitionToWriteStats/p2/0/recordsStats").has("val"));
    assertTrue(out.at("/partitionToWriteStats/p2/0/recordsStats/val").isNull());
  }

  @Test
  void writesJacksonPrettyPrinterStyle() {
    WriteStat s = WriteStat.builder().fileId("f-0").path("p1/f-0_0-0-0_001.parquet").partitionPath("p1")
        .numWrites(2).numInserts(2).totalWriteBytes(10).fileSizeInBytes(10).build();
    CommitMetadata md = new CommitMetadata(Map.of("p1", List.of(s)), false, Map.of("schema", "{}"),
        WriteOperationType.INSERT);
    String text = new String(md.toJson(), StandardCharsets.UTF_8);
    assertTrue(text.startsWith("{\n  \"partitionToWriteStats\" : {\n    \"p1\" : [ {\n      \"fileId\" : \"f-0\",\n"), text);
    assertTrue(text.contains("\"cdcStats\" : null,"), text);
    assertTrue(text.contains("\"prevCommit\" : \"null\","), text);
    assertTrue(text.contains("\"minEventTime\" : null,"), text);
    assertTrue(text.contains("    } ]\n  },\n  \"compacted\" : false,\n"), text);
    assertTrue(text.endsWith("\"operationType\" : \"INSERT\"\n}"), text);
    assertFalse(text.contains("logVersion"), "not a delta stat");
    assertFalse(text.contains("partitionToReplaceFileIds"));
  }

  @Test
  void roundTripOfEveryField() {
    WriteStat full = WriteStat.builder().fileId("id-1").path("a/b/.id-1_005.log.3_1-2-3").cdcStats(Map.of("cdc", 7L))
        .prevCommit("005").numWrites(1).numDeletes(2).numUpdateWrites(3).numInserts(4).totalWriteBytes(5)
        .totalWriteErrors(6).tempPath("tmp/x").partitionPath("a/b").totalLogRecords(7).totalLogFilesCompacted(8)
        .totalLogSizeCompacted(9).totalUpdatedRecordsCompacted(10).totalLogBlocks(11).totalCorruptLogBlock(12)
        .totalRollbackBlocks(13).fileSizeInBytes(14).minEventTime(15L).maxEventTime(16L)
        .runtimeStats(new WriteStat.RuntimeStats(17, 18, 19)).logVersion(3).logOffset(20).baseFile("")
        .logFiles(List.of(".id-1_005.log.3_1-2-3")).build();
    WriteStat plain = WriteStat.builder().fileId("id-2").partitionPath("").build();
    Map<String, List<WriteStat>> parts = new LinkedHashMap<>();
    parts.put("a/b", List.of(full));
    parts.put("", List.of(plain));
    Map<String, String> extra = new LinkedHashMap<>();
    extra.put("schema", "{\"type\":\"record\"}");
    extra.put("checkpoint", "x");
    CommitMetadata md = new CommitMetadata(parts, true, extra, WriteOperationType.COMPACT,
        Optional.of(Map.of("a/b", List.of("old-1", "old-2"))));
    assertEquals(md, CommitMetadata.fromJson(md.toJson()));
    assertEquals(List.of("old-1", "old-2"), CommitMetadata.fromJson(md.toJson()).replacedFileIds("a/b"));
    assertEquals(Optional.empty(), CommitMetadata.fromJson(md.toJson()).allStats().get(1).path());
  }

  @Test
  void toleratesUnknownFieldsAndMissingOnes() {
    String json = "{\"partitionToWriteStats\":{\"p\":[{\"fileId\":\"f\",\"newField\":1,\"path\":\"p/f_1-0-1_1.parquet\"}]},"
        + "\"operationType\":\"SOMETHING_NEW\",\"future\":{\"a\":1}}";
    CommitMetadata md = CommitMetadata.fromJson(json.getBytes(StandardCharsets.UTF_8));
    assertEquals(WriteOperationType.UNKNOWN, md.operationType());
    assertEquals("f", md.allStats().get(0).fileId());
    assertEquals(WriteStat.NULL_COMMIT, md.allStats().get(0).prevCommit());
    assertEquals(Map.of(), md.extraMetadata());
    assertEquals(Optional.empty(), md.schema());
  }

  @Test
  void malformedJsonIsABadTable() {
    SluiceException e = assertThrows(SluiceException.class,
        () -> CommitMetadata.fromJson("[1,2".getBytes(StandardCharsets.UTF_8)));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
  }

  @Test
  void replaceCommitJsonHasReplacedIdsLast() throws IOException {
    CommitMetadata md = new CommitMetadata(Map.of(), false, Map.of(), WriteOperationType.INSERT_OVERWRITE,
        Optional.of(Map.of("p", List.of("f-0"))));
    JsonNode tree = MAPPER.readTree(md.toJson());
    List<String> fields = new ArrayList<>();
    for (Iterator<String> it = tree.fieldNames(); it.hasNext(); ) {
      fields.add(it.next());
    }
    assertEquals(List.of("partitionToWriteStats", "compacted", "extraMetadata", "operationType",
        "partitionToReplaceFileIds"), fields);
  }

  @Test
  void writeOperationTypeParsesNamesAndValues() {
    assertEquals(WriteOperationType.BULK_INSERT, WriteOperationType.parse("BULK_INSERT"));
    assertEquals(WriteOperationType.BULK_INSERT, WriteOperationType.parse("bulk_insert"));
    assertEquals(WriteOperationType.LOG_COMPACT, WriteOperationType.parse("logcompact"));
    assertEquals(WriteOperationType.UNKNOWN, WriteOperationType.parse("nope"));
  }
}
