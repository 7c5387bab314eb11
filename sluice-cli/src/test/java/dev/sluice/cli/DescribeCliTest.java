package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice describe --json} against the table's own files: hoodie.properties, data files, timeline. */
class DescribeCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern BASE = Pattern.compile("([^.][^_]*)_[^_]+_(\\d+)\\.parquet");
  private static final Pattern LOG = Pattern.compile("\\.([^_]+)_(\\d+)\\.log\\.\\d+_.*");

  @TempDir
  Path dir;

  private static CliTest.Run ok(String... args) {
    CliTest.Run r = CliTest.run(args);
    assertEquals(0, r.exit(), r.err() + r.out());
    return r;
  }

  private Path write(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  private static Map<String, String> hoodieProperties(Path table) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(table.resolve(".hoodie/hoodie.properties"))) {
      p.load(r);
    }
    Map<String, String> m = new HashMap<>();
    p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
    return m;
  }

  private static List<String> list(String commaSeparated) {
    return commaSeparated == null || commaSeparated.isBlank() ? List.of() : Arrays.asList(commaSeparated.split(","));
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  /** Figures of the data files on storage: the newest base file per file group plus the logs written after it. */
  private static long[] latestSlicesOnDisk(Path table) throws IOException {
    Map<String, String> newestBase = new HashMap<>();
    Map<String, Long> newestBaseSize = new HashMap<>();
    List<Path> logs = new ArrayList<>();
    try (Stream<Path> files = Files.walk(table)) {
      for (Path f : files.filter(Files::isRegularFile).filter(f -> !table.relativize(f).startsWith(".hoodie")).toList()) {
        String name = f.getFileName().toString();
        Matcher b = BASE.matcher(name);
        if (b.matches()) {
          String key = table.relativize(f).getParent() + "/" + b.group(1);
          if (newestBase.getOrDefault(key, "").compareTo(b.group(2)) < 0) {
            newestBase.put(key, b.group(2));
            newestBaseSize.put(key, Files.size(f));
          }
        } else if (LOG.matcher(name).matches()) {
          logs.add(f);
        }
      }
    }
    long bytes = newestBaseSize.values().stream().mapToLong(Long::longValue).sum();
    long logCount = 0;
    java.util.Set<String> groups = new java.util.HashSet<>(newestBase.keySet());
    for (Path l : logs) {
      Matcher m = LOG.matcher(l.getFileName().toString());
      m.matches();
      String key = table.relativize(l).getParent() + "/" + m.group(1);
      if (m.group(2).compareTo(newestBase.getOrDefault(key, "")) >= 0) {
        logCount++;
        bytes += Files.size(l);
        groups.add(key);
      }
    }
    return new long[] {groups.size(), newestBase.size(), logCount, bytes};
  }

  /** The folder of the instant files: {@code .hoodie/timeline} on versions 8 and 9 (the default), else {@code .hoodie}. */
  private static Path timelineOf(Path table) {
    Path layout2 = table.resolve(".hoodie/timeline");
    return Files.isDirectory(layout2) ? layout2 : table.resolve(".hoodie");
  }

  /** The newest completed commit, delta commit or replacecommit file of the timeline folder. */
  private static String[] lastCommitOnDisk(Path timelineDir) throws IOException {
    Pattern done = Pattern.compile("(\\d+)(?:_(\\d+))?\\.(commit|deltacommit|replacecommit)");
    String[] best = null;
    try (Stream<Path> files = Files.list(timelineDir)) {
      for (Path f : files.toList()) {
        Matcher m = done.matcher(f.getFileName().toString());
        if (m.matches() && (best == null || best[0].compareTo(m.group(1)) < 0)) {
          best = new String[] {m.group(1), m.group(3), m.group(2)};
        }
      }
    }
    return best;
  }

  private void assertMatchesFiles(Path table, JsonNode d, Path timelineDir) throws IOException {
    Map<String, String> props = hoodieProperties(table);
    Map<String, String> shown = new HashMap<>();
    d.get("properties").fields().forEachRemaining(e -> shown.put(e.getKey(), e.getValue().asText()));
    assertEquals(props, shown);
    assertEquals(props.get("hoodie.table.name"), d.get("name").asText());
    assertEquals(props.get("hoodie.table.type"), d.get("tableType").asText());
    assertEquals(Integer.parseInt(props.get("hoodie.table.version")), d.get("tableVersion").asInt());
    assertEquals(list(props.get("hoodie.table.recordkey.fields")), strings(d.get("recordKeyFields")));
    assertEquals(list(props.get("hoodie.table.partition.fields")), strings(d.get("partitionFields")));
    assertEquals(props.getOrDefault("hoodie.table.precombine.field", props.get("hoodie.table.ordering.fields")),
        d.get("orderingField").asText());
    assertEquals(props.getOrDefault("hoodie.table.keygenerator.class", props.get("hoodie.table.keygenerator.type")),
        d.get("keyGenerator").asText());
    assertEquals(list(props.get("hoodie.table.metadata.partitions")), strings(d.get("metadataTablePartitions")));
    for (String p : strings(d.get("metadataTablePartitions"))) {
      assertTrue(Files.isDirectory(table.resolve(".hoodie/metadata").resolve(p)), p);
    }
    Schema created = new Schema.Parser().parse(props.get("hoodie.table.create.schema"));
    assertEquals(created, new Schema.Parser().parse(d.get("schema").get("avro").toString()));
    long[] disk = latestSlicesOnDisk(table);
    JsonNode z = d.get("latestSlices");
    assertEquals(disk[0], z.get("fileGroups").asLong(), z.toString());
    assertEquals(disk[1], z.get("baseFiles").asLong(), z.toString());
    assertEquals(disk[2], z.get("logFiles").asLong(), z.toString());
    assertEquals(disk[3], z.get("bytes").asLong(), z.toString());
    assertEquals(disk[1] + disk[2], z.get("files").asLong());
    String[] last = lastCommitOnDisk(timelineDir);
    assertEquals(last[0], d.get("lastCommit").get("time").asText());
    assertEquals(last[1], d.get("lastCommit").get("action").asText());
    assertEquals(last[2] == null ? "null" : last[2], d.get("lastCommit").get("completionTime").asText());
  }

  @Test
  void copyOnWriteTableAfterARewrite() throws IOException {
    Path t = dir.resolve("cow");
    ok("create", t.toString(), "--type", "cow", "--record-key", "id", "--precombine", "ts", "--partition-path", "city",
        "--hive-style", "--columns", "id string, ts long, city string, fare double");
    ok("insert", t.toString(), write("a.jsonl", "{\"id\":\"a\",\"ts\":1,\"city\":\"oslo\",\"fare\":1.5}\n"
        + "{\"id\":\"b\",\"ts\":1,\"city\":\"rome\",\"fare\":2.5}\n").toString());
    ok("upsert", t.toString(), write("b.jsonl", "{\"id\":\"a\",\"ts\":2,\"city\":\"oslo\",\"fare\":3.5}\n").toString());
    JsonNode d = JSON.readTree(ok("describe", t.toString(), "--json").out());
    assertMatchesFiles(t, d, timelineOf(t));
    assertEquals("EVENT_TIME_ORDERING", d.get("mergeMode").asText());
    assertEquals("id string not null, ts long not null, city string, fare double", d.get("schema").get("ddl").asText());
    assertEquals(2, d.get("latestSlices").get("fileGroups").asInt(), "one per city; the rewrite replaced oslo's");
    assertEquals("commit", d.get("lastCommit").get("action").asText());

    CliTest.Run text = ok("describe", t.toString());
    assertTrue(text.out().contains("record key       id") && text.out().contains("partition by     city")
        && text.out().contains("hoodie.table.recordkey.fields=id"), text.out());
  }

  @Test
  void mergeOnReadTableWithLogs() throws IOException {
    Path t = dir.resolve("mor");
    ok("create", t.toString(), "--type", "mor", "--record-key", "id", "--precombine", "ts", "--merge-mode",
        "commit-time", "--columns", "id string, ts long, fare double");
    ok("bulk-insert", t.toString(), write("a.jsonl", "{\"id\":\"a\",\"ts\":1,\"fare\":1.5}\n"
        + "{\"id\":\"b\",\"ts\":1,\"fare\":2.5}\n").toString());
    ok("upsert", t.toString(), write("b.jsonl", "{\"id\":\"a\",\"ts\":2,\"fare\":3.5}\n").toString());
    ok("upsert", t.toString(), write("c.jsonl", "{\"id\":\"b\",\"ts\":2,\"fare\":4.5}\n").toString());
    JsonNode d = JSON.readTree(ok("describe", t.toString(), "--json").out());
    assertMatchesFiles(t, d, timelineOf(t));
    assertEquals("MERGE_ON_READ", d.get("tableType").asText());
    assertEquals("COMMIT_TIME_ORDERING", d.get("mergeMode").asText());
    assertEquals(2, d.get("latestSlices").get("logFiles").asInt(), d.toString());
    assertEquals("deltacommit", d.get("lastCommit").get("action").asText());
    assertTrue(d.get("partitionFields").isEmpty());
  }

  @Test
  void versionNineTable() throws IOException {
    Path t = dir.resolve("v9");
    ok("create", t.toString(), "--table-version", "9", "--record-key", "id", "--precombine", "ts", "--columns",
        "id string, ts long");
    ok("insert", t.toString(), write("a.jsonl", "{\"id\":\"a\",\"ts\":1}\n").toString());
    JsonNode d = JSON.readTree(ok("describe", t.toString(), "--json").out());
    assertEquals(9, d.get("tableVersion").asInt());
    assertMatchesFiles(t, d, t.resolve(".hoodie/timeline"));
    assertTrue(d.get("lastCommit").get("completionTime").asText().matches("\\d{17}"), d.toString());
  }

  @Test
  void aNewTableHasNoCommit() {
    String t = dir.resolve("new").toString();
    ok("create", t, "--record-key", "id", "--columns", "id string");
    JsonNode d;
    try {
      d = JSON.readTree(ok("describe", t, "--json").out());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    assertTrue(d.get("lastCommit").isNull());
    assertEquals(0, d.get("latestSlices").get("files").asInt());
    assertTrue(d.get("orderingField").isNull());
  }
}
