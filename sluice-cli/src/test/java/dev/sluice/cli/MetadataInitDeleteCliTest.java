package dev.sluice.cli;

import static dev.sluice.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice metadata init TABLE [--record-index]} and {@code sluice metadata delete TABLE}. */
class MetadataInitDeleteCliTest {
  @TempDir
  Path dir;

  /** A table with two rows and no metadata table: written with {@code hoodie.metadata.enable=false}. */
  private Path table() throws IOException {
    // these tests build and remove the metadata table of a table without one: the insert's default would build it
    return table("--conf", "hoodie.metadata.enable=false");
  }

  private Path table(String... insertOptions) throws IOException {
    Path t = dir.resolve("t");
    CliTest.Run c = run("create", t.toString(), "--type", "cow", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double", "--conf",
        "hoodie.index.bloom.num_entries=1000");
    assertEquals(0, c.exit(), c.err());
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, """
        {"id": "a", "ts": 1, "city": "oslo", "fare": 10.5}
        {"id": "b", "ts": 1, "city": "lisbon", "fare": 3.0}
        """);
    List<String> args = new ArrayList<>(List.of("insert", t.toString(), in.toString()));
    args.addAll(List.of(insertOptions));
    CliTest.Run ins = run(args.toArray(String[]::new));
    assertEquals(0, ins.exit(), ins.err());
    return t;
  }

  /** No option: {@code sluice create} then a write give a table whose metadata table is valid and used. */
  @Test
  void createAndInsertWithoutOptionsBuildTheMetadataTable() throws IOException {
    Path t = table(new String[0]);
    assertEquals("files", props(t).getProperty("hoodie.table.metadata.partitions"));
    // its initialization: 00000000000000010.deltacommit (version 6) or, on 8/9, 00000000000000000_<completion>
    try (Stream<Path> s = Files.list(timeline(t.resolve(".hoodie/metadata")))) {
      assertTrue(s.anyMatch(p -> p.getFileName().toString().matches("0{15}[01]0(_\\d{17})?\\.deltacommit")),
          "built on the new table before its first write");
    }
    CliTest.Run listed = run("metadata", t.toString());
    assertEquals(0, listed.exit(), listed.err());
    assertTrue(listed.out().contains("metadata table: used for listings"), listed.out());
    CliTest.Run valid = run("metadata", "validate", t.toString());
    assertEquals(0, valid.exit(), valid.out() + valid.err());
  }

  /** The folder of a table's instant files: {@code .hoodie/timeline} (versions 8 and 9) or {@code .hoodie} (6). */
  private static Path timeline(Path t) {
    Path layout2 = t.resolve(".hoodie/timeline");
    return Files.isDirectory(layout2) ? layout2 : t.resolve(".hoodie");
  }

  private static Properties props(Path t) throws IOException {
    Properties p = new Properties();
    try (var in = Files.newInputStream(t.resolve(".hoodie/hoodie.properties"))) {
      p.load(in);
    }
    return p;
  }

  @Test
  void initBuildsTheMetadataTableWritesKeepItAndDeleteRemovesIt() throws IOException {
    Path t = table();
    assertFalse(Files.exists(t.resolve(".hoodie/metadata")), "a table created without one has none");

    CliTest.Run init = run("metadata", "init", t.toString(), "--json");
    assertEquals(0, init.exit(), init.err());
    JsonNode doc = new ObjectMapper().readTree(init.out());
    assertEquals("files", doc.get("partitionsEnabled").get(0).asText());
    assertEquals("files", props(t).getProperty("hoodie.table.metadata.partitions"));
    assertTrue(Files.isDirectory(t.resolve(".hoodie/metadata/files")));

    CliTest.Run listed = run("metadata", t.toString());
    assertEquals(0, listed.exit(), listed.err());
    assertTrue(listed.out().contains("metadata table: used for listings"), listed.out());
    assertTrue(listed.out().contains("partition city=oslo (1 files)") || listed.out().contains("partition oslo (1 files)"),
        listed.out());

    // a later write keeps it (hoodie.metadata.enable defaults to true on a table that has one) and it stays valid
    Path up = dir.resolve("up.jsonl");
    Files.writeString(up, "{\"id\": \"c\", \"ts\": 1, \"city\": \"rome\", \"fare\": 1.0}\n");
    assertEquals(0, run("upsert", t.toString(), up.toString()).exit());
    CliTest.Run valid = run("metadata", "validate", t.toString());
    assertEquals(0, valid.exit(), valid.out() + valid.err());

    CliTest.Run again = run("metadata", "init", t.toString());
    assertEquals(0, again.exit(), again.err());

    CliTest.Run del = run("metadata", "delete", t.toString());
    assertEquals(0, del.exit(), del.err());
    assertTrue(del.out().contains("deleted"), del.out());
    assertFalse(Files.exists(t.resolve(".hoodie/metadata")));
    assertEquals("", props(t).getProperty("hoodie.table.metadata.partitions", ""));
    CliTest.Run off = run("metadata", t.toString());
    assertEquals(1, off.exit(), off.out() + off.err());
    assertTrue(off.err().contains("the table has no metadata table") && off.err().contains("sluice metadata init"),
        off.err());
    CliTest.Run none = run("metadata", "delete", t.toString());
    assertEquals(0, none.exit(), none.err());
    assertTrue(none.out().contains("has no metadata table"), none.out());

    // a write with it off does not bring it back, and the data is intact
    assertEquals(0, run("upsert", t.toString(), up.toString(), "--conf", "hoodie.metadata.enable=false").exit());
    assertFalse(Files.exists(t.resolve(".hoodie/metadata")));
    CliTest.Run q = run("query", t.toString(), "--columns", "id");
    assertEquals(3, q.out().lines().count(), q.out());
    // a write with the default builds it again, as a Hudi writer with its default does
    assertEquals(0, run("upsert", t.toString(), up.toString()).exit());
    assertEquals("files", props(t).getProperty("hoodie.table.metadata.partitions"));
    CliTest.Run rebuilt = run("metadata", "validate", t.toString());
    assertEquals(0, rebuilt.exit(), rebuilt.out() + rebuilt.err());
  }

  @Test
  void initRefusesATableWithAPendingInstant() throws IOException {
    Path t = table();
    Files.writeString(timeline(t).resolve("20990101000000000.commit.requested"), "");
    CliTest.Run init = run("metadata", "init", t.toString());
    assertEquals(1, init.exit(), init.out() + init.err());
    assertTrue(init.err().contains("pending instant"), init.err());
    assertFalse(Files.exists(t.resolve(".hoodie/metadata/files")));
  }

  /** {@code --record-index} builds {@code record_index} beside {@code files}. */
  @Test
  void initWithRecordIndexBuildsTheRecordIndexPartition() throws IOException {
    Path t = table();
    CliTest.Run init = run("metadata", "init", t.toString(), "--record-index");
    assertEquals(0, init.exit(), init.out() + init.err());
    assertTrue(props(t).getProperty("hoodie.table.metadata.partitions").contains("record_index"),
        props(t).toString());
    assertTrue(Files.isDirectory(t.resolve(".hoodie/metadata/record_index")));

    // a later write that does not set hoodie.metadata.record.index.enable keeps the index; one update, one insert
    Path more = dir.resolve("more.jsonl");
    Files.writeString(more, """
        {"id": "a", "ts": 2, "city": "oslo", "fare": 11.5}
        {"id": "c", "ts": 1, "city": "oslo", "fare": 7.0}
        """);
    CliTest.Run up = run("upsert", t.toString(), more.toString(), "--conf", "hoodie.index.type=RECORD_INDEX");
    assertEquals(0, up.exit(), up.out() + up.err());
    assertEquals("files,record_index", props(t).getProperty("hoodie.table.metadata.partitions"));
    CliTest.Run q = run("query", t.toString(), "--format", "jsonl");
    assertEquals(0, q.exit(), q.err());
    assertEquals(3, q.out().lines().filter(l -> l.startsWith("{")).count(), q.out());
  }
}
