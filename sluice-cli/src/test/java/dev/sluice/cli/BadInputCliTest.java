package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of bad input fails the write with a one-line error naming the file, the line and the field and saying
 * what was expected, exit status 3, and leaves the table exactly as it was (no instant, no file).
 */
class BadInputCliTest {
  @TempDir
  Path dir;

  private String table;

  @BeforeEach
  void create() throws IOException {
    table = dir.resolve("t").toString();
    CliTest.Run c = CliTest.run("create", table, "--type", "cow", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double");
    assertEquals(0, c.exit(), c.err());
    Path in = dir.resolve("good.jsonl");
    Files.writeString(in, "{\"id\": \"a\", \"ts\": 1, \"city\": \"oslo\", \"fare\": 1.5}\n");
    assertEquals(0, CliTest.run("insert", table, in.toString()).exit());
  }

  static Stream<Arguments> cases() {
    String ok = "{\"id\": \"b\", \"ts\": 1, \"city\": \"rome\", \"fare\": 2.5}";
    return Stream.of(
        Arguments.of("null key", "in.jsonl", ok + "\n{\"id\": null, \"ts\": 1, \"city\": \"oslo\", \"fare\": 1.0}\n",
            List.of("in.jsonl:2", "'id'")),
        Arguments.of("empty key", "in.jsonl", ok + "\n" + ok + "\n{\"id\": \"\", \"ts\": 1, \"city\": \"oslo\", \"fare\": 1.0}\n",
            List.of("in.jsonl:3", "'id'")),
        Arguments.of("missing precombine", "in.jsonl", "{\"id\": \"c\", \"city\": \"oslo\", \"fare\": 1.0}\n",
            List.of("in.jsonl:1", "'ts'")),
        Arguments.of("null precombine", "in.jsonl", "{\"id\": \"c\", \"ts\": null, \"city\": \"oslo\", \"fare\": 1.0}\n",
            List.of("in.jsonl:1", "'ts'")),
        Arguments.of("wrong type", "in.jsonl", ok + "\n{\"id\": \"c\", \"ts\": \"soon\", \"city\": \"oslo\", \"fare\": 1.0}\n",
            List.of("in.jsonl:2", "'ts'", "soon")),
        Arguments.of("malformed JSON", "in.jsonl", ok + "\n{\"id\": \"c\", \"ts\": 1, \"city\": \"oslo\", \"fare\": \n",
            List.of("in.jsonl:2", "malformed JSON")),
        Arguments.of("malformed CSV", "in.csv", "id,ts,city,fare\nb,1,rome,2.5\nc,1,\"oslo,1.0\n",
            List.of("in.csv:3")),
        Arguments.of("CSV line with too many cells", "in.csv", "id,ts,city,fare\nb,1,rome,2.5,9\n",
            List.of("in.csv:2")),
        Arguments.of("field not in the schema", "in.jsonl",
            "{\"id\": \"c\", \"ts\": 1, \"city\": \"oslo\", \"fare\": 1.0, \"tip\": 3}\n", List.of("in.jsonl:1", "'tip'")),
        Arguments.of("wrong type in CSV", "in.csv", "id,ts,city,fare\nb,1,rome,cheap\n", List.of("in.csv:2", "'fare'",
            "cheap")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badInputIsRefusedWithTheFileLineAndFieldAndNothingIsCommitted(String what, String file, String content,
      List<String> mentions) throws IOException {
    List<String> before = listing();
    String timelineBefore = CliTest.run("timeline", table).out();
    Path in = dir.resolve(file);
    Files.writeString(in, content);
    CliTest.Run r = CliTest.run("upsert", table, in.toString());
    assertEquals(3, r.exit(), what + ": " + r.err() + r.out());
    assertTrue(r.err().startsWith("error: ") && r.err().trim().lines().count() == 1, r.err());
    for (String m : mentions) {
      assertTrue(r.err().contains(m), what + ": the error should mention " + m + ": " + r.err());
    }
    assertEquals(before, listing(), "no file was written");
    assertEquals(timelineBefore, CliTest.run("timeline", table).out());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theSameInputsFailThroughInsertAndBulkInsert(String what, String file, String content, List<String> mentions)
      throws IOException {
    Path in = dir.resolve(file);
    Files.writeString(in, content);
    for (String op : List.of("insert", "bulk-insert")) {
      CliTest.Run r = CliTest.run(op, table, in.toString());
      assertEquals(3, r.exit(), op + " " + what + ": " + r.err());
    }
  }

  @org.junit.jupiter.api.Test
  void aFieldNotInTheSchemaIsIgnoredWhenAsked() throws IOException {
    Path in = dir.resolve("extra.jsonl");
    Files.writeString(in, "{\"id\": \"c\", \"ts\": 1, \"city\": \"oslo\", \"fare\": 1.0, \"tip\": 3}\n");
    CliTest.Run r = CliTest.run("upsert", table, in.toString(), "--ignore-unknown-fields");
    assertEquals(0, r.exit(), r.err());
    CliTest.Run q = CliTest.run("query", table, "--format", "jsonl");
    assertTrue(q.out().contains("\"id\":\"c\"") || q.out().contains("\"id\": \"c\""), q.out());
    assertTrue(!q.out().contains("tip"), q.out());
  }

  @org.junit.jupiter.api.Test
  void aSchemaFileEvolvesTheTableAndAnIncompatibleOneIsRefused() throws IOException {
    org.apache.avro.Schema current = dev.sluice.api.Tables.open(table).schema();
    List<org.apache.avro.Schema.Field> fields = new ArrayList<>();
    current.getFields().forEach(f -> fields.add(new org.apache.avro.Schema.Field(f, f.schema())));
    fields.add(new org.apache.avro.Schema.Field("tip", org.apache.avro.Schema.createUnion(
        org.apache.avro.Schema.create(org.apache.avro.Schema.Type.NULL),
        org.apache.avro.Schema.create(org.apache.avro.Schema.Type.DOUBLE)), null, org.apache.avro.Schema.Field.NULL_DEFAULT_VALUE));
    Path v2 = dir.resolve("v2.avsc");
    Files.writeString(v2, org.apache.avro.Schema.createRecord(current.getName(), null, current.getNamespace(), false, fields)
        .toString());
    Path in = dir.resolve("v2.jsonl");
    Files.writeString(in, "{\"id\": \"c\", \"ts\": 1, \"city\": \"oslo\", \"fare\": 1.0, \"tip\": 3.5}\n");
    CliTest.Run r = CliTest.run("upsert", table, in.toString(), "--schema", v2.toString());
    assertEquals(0, r.exit(), r.err());
    CliTest.Run q = CliTest.run("query", table, "--format", "csv");
    assertTrue(q.out().contains("tip") && q.out().contains("3.5"), q.out());

    List<org.apache.avro.Schema.Field> fewer = new ArrayList<>();
    current.getFields().stream().filter(f -> !f.name().equals("fare"))
        .forEach(f -> fewer.add(new org.apache.avro.Schema.Field(f, f.schema())));
    Path dropped = dir.resolve("dropped.avsc");
    Files.writeString(dropped, org.apache.avro.Schema.createRecord(current.getName(), null, current.getNamespace(), false,
        fewer).toString());
    Path in2 = dir.resolve("dropped.jsonl");
    Files.writeString(in2, "{\"id\": \"d\", \"ts\": 1, \"city\": \"oslo\"}\n");
    List<String> before = listing();
    CliTest.Run bad = CliTest.run("upsert", table, in2.toString(), "--schema", dropped.toString());
    assertEquals(3, bad.exit(), bad.err());
    assertTrue(bad.err().contains("'fare'") && bad.err().contains("missing from the records"), bad.err());
    assertEquals(before, listing());
  }

  private List<String> listing() throws IOException {
    List<String> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(Path.of(table))) {
      s.forEach(p -> out.add(Path.of(table).relativize(p).toString()));
    }
    out.sort(null);
    return out;
  }
}
