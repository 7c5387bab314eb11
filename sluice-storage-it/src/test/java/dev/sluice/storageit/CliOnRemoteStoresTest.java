package dev.sluice.storageit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The command lines of docs/storage.md: the CLI pointed at HDFS with {@code --conf}, at S3 with {@code --config FILE}. */
@ExtendWith(Servers.class)
class CliOnRemoteStoresTest {
  private static final String COLUMNS = "trip_id string, ts long, city string, fare double";

  @TempDir
  Path dir;

  private record Run(int code, String out, String err) {
  }

  private static Run sluice(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(code, out.toString(), err.toString());
  }

  private static List<String> with(List<String> args, List<String> storage) {
    List<String> out = new ArrayList<>(args);
    out.addAll(storage);
    return out;
  }

  private Path input() throws IOException {
    Path in = dir.resolve("trips.jsonl");
    Files.writeString(in, String.join("\n",
        "{\"trip_id\": \"t1\", \"ts\": 1, \"city\": \"oslo\", \"fare\": 12.5}",
        "{\"trip_id\": \"t2\", \"ts\": 1, \"city\": \"lima\", \"fare\": 30.0}",
        "{\"trip_id\": \"t3\", \"ts\": 1, \"city\": \"oslo\", \"fare\": 25.0}") + "\n", StandardCharsets.UTF_8);
    return in;
  }

  private void createInsertQuery(String table, List<String> storage) throws IOException {
    Run create = sluice(with(List.of("create", table, "--type", "cow", "--record-key", "trip_id", "--precombine", "ts",
        "--partition-path", "city", "--columns", COLUMNS), storage));
    assertEquals(0, create.code(), create.err());
    Run insert = sluice(with(List.of("insert", table, input().toString()), storage));
    assertEquals(0, insert.code(), insert.err());
    Run query = sluice(with(List.of("query", table, "--where", "city = 'oslo' and fare > 20", "--columns", "trip_id,fare"),
        storage));
    assertEquals(0, query.code(), query.err());
    assertEquals(List.of("{\"trip_id\":\"t3\",\"fare\":25.0}"), Arrays.stream(query.out().split("\n"))
        .map(String::trim).filter(l -> !l.isEmpty()).map(l -> l.replace(" ", "")).toList());
    Run timeline = sluice(with(List.of("timeline", table), storage));
    assertEquals(0, timeline.code(), timeline.err());
    assertTrue(timeline.out().contains("commit"), timeline.out());
  }

  @Test
  void hdfsWithConf(HdfsServer hdfs) throws IOException {
    List<String> conf = hdfs.clientSettings().entrySet().stream()
        .flatMap(e -> java.util.stream.Stream.of("--conf", e.getKey() + "=" + e.getValue())).toList();
    createInsertQuery(hdfs.newFolder("cli") + "/trips", conf);
  }

  @Test
  void s3WithAConfigFile(S3Server s3) throws IOException {
    Path props = dir.resolve("s3.properties");
    Map<String, String> settings = s3.s3aSettings();
    Files.writeString(props, settings.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining("\n")) + "\n", StandardCharsets.UTF_8);
    createInsertQuery("s3a://" + s3.newBucket("cli") + "/trips", List.of("--config", props.toString()));
  }
}
