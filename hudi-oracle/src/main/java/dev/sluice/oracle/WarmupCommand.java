package dev.sluice.oracle;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * {@code warmup --dir DIR}: runs every other command once on throw-away CoW and MoR tables under {@code DIR}, so
 * that a JVM started with {@code -XX:ArchiveClassesAtExit} archives the classes a typical oracle call loads.
 * Deletes what it wrote; prints {@code ok}.
 */
final class WarmupCommand {

  private static final Schema SCHEMA = SchemaBuilder.record("warm").namespace("warmup").fields()
      .requiredString("id")
      .requiredLong("ts")
      .requiredString("part")
      .optionalString("name")
      .endRecord();

  private WarmupCommand() {
  }

  static void run(Args args, PrintStream out) throws IOException {
    Path dir = Files.createTempDirectory(Path.of(args.required("dir")), "oracle-warmup");
    try {
      Path schemaFile = dir.resolve("schema.avsc");
      Files.writeString(schemaFile, SCHEMA.toString(), StandardCharsets.UTF_8);
      Path first = input(dir, "first.jsonl", List.of(record("a", 1, "p1"), record("b", 1, "p2")));
      Path second = input(dir, "second.jsonl", List.of(record("a", 2, "p1"), record("c", 2, "p1")));
      for (String type : List.of("COPY_ON_WRITE", "MERGE_ON_READ")) {
        String table = dir.resolve(type.toLowerCase()).toString();
        call("create", "--table", table, "--type", type, "--name", "warm", "--record-key", "id",
            "--precombine", "ts", "--partition-fields", "part", "--schema", schemaFile.toString());
        call("write", "--table", table, "--op", "insert", "--input", first.toString());
        call("write", "--table", table, "--op", "upsert", "--input", second.toString(),
            "--conf", "hoodie.parquet.small.file.limit=0");
        call("write", "--table", table, "--op", "delete", "--input", first.toString());
        call("read", "--table", table);
        call("read", "--table", table, "--query", "read_optimized", "--use-metadata");
        call("timeline", "--table", table);
        call("fsview", "--table", table);
        call("schema", "--table", table);
        call("mdt-files", "--table", table);
        call("mdt-files", "--table", table, "--reader", "native");
      }
      // A base file of the first commit: later ones may be empty (the delete) and carry no key range.
      try (Stream<Path> files = Files.walk(dir.resolve("copy_on_write"))) {
        List<Path> parquet = files.filter(p -> p.getFileName().toString().endsWith(".parquet"))
            .sorted(Comparator.comparing(p -> instantOf(p.getFileName().toString())))
            .collect(Collectors.toList());
        if (!parquet.isEmpty()) {
          call("bloom", "--file", parquet.get(0).toString(), "--keys", "a,b");
          Path keys = dir.resolve("keys.txt");
          Files.writeString(keys, "a\nb\n", StandardCharsets.UTF_8);
          call("bloom", "--file", parquet.get(0).toString(), "--keys-file", keys.toString());
          Path script = dir.resolve("batch.txt");
          String table = dir.resolve("copy_on_write").toString();
          ObjectMapper json = new ObjectMapper();
          Files.write(script, List.of(json.writeValueAsString(List.of("timeline", "--table", table)),
              json.writeValueAsString(List.of("schema", "--table", table))), StandardCharsets.UTF_8);
          call("batch", "--script", script.toString());
        }
      }
      out.println("ok");
    } finally {
      deleteRecursively(dir);
    }
  }

  private static String instantOf(String baseFileName) {
    String stem = baseFileName.substring(0, baseFileName.length() - ".parquet".length());
    return stem.substring(stem.lastIndexOf('_') + 1);
  }

  private static void call(String... args) throws IOException {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    int status = Oracle.run(List.of(args), new PrintStream(sink, true, StandardCharsets.UTF_8), System.err);
    if (status != 0) {
      throw new IOException("warm-up step " + List.of(args) + " failed with status " + status);
    }
  }

  private static Path input(Path dir, String name, List<GenericRecord> records) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add(SCHEMA.toString());
    for (GenericRecord record : records) {
      lines.add(AvroJson.encode(SCHEMA, record));
    }
    Path file = dir.resolve(name);
    Files.write(file, lines, StandardCharsets.UTF_8);
    return file;
  }

  private static GenericRecord record(String id, long ts, String part) {
    GenericRecord record = new GenericData.Record(SCHEMA);
    record.put("id", id);
    record.put("ts", ts);
    record.put("part", part);
    record.put("name", id + ts);
    return record;
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.deleteIfExists(p);
      }
    }
  }
}
