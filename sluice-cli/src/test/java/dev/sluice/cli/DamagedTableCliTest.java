package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged tables on the command line: one error line naming the file, exit status 1. */
class DamagedTableCliTest {
  @TempDir
  Path dir;

  private void assertOneLineError(CliTest.Run r, String mentions) {
    assertEquals(1, r.exit(), r.err() + r.out());
    assertTrue(r.err().startsWith("error: ") && r.err().trim().lines().count() == 1, r.err());
    assertTrue(r.err().contains(mentions), r.err());
  }

  @Test
  void notATableAndABrokenCommitFile() throws IOException {
    Files.createDirectories(dir.resolve("nothing"));
    assertOneLineError(CliTest.run("query", dir.resolve("nothing").toString()), "hoodie.properties");
    assertOneLineError(CliTest.run("rollback", dir.resolve("nothing").toString()), "hoodie.properties");

    String table = dir.resolve("t").toString();
    assertEquals(0, CliTest.run("create", table, "--type", "cow", "--record-key", "id", "--precombine", "ts",
        "--columns", "id string, ts long").exit());
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\": \"a\", \"ts\": 1}\n");
    assertEquals(0, CliTest.run("insert", table, in.toString()).exit());
    Path commit;
    // the completed commit: .hoodie/<instant>.commit (version 6) or .hoodie/timeline/<instant>_<completion>.commit
    try (Stream<Path> s = Files.walk(dir.resolve("t/.hoodie"), 2)) {
      commit = s.filter(p -> p.getFileName().toString().endsWith(".commit") && !p.toString().contains("/metadata/"))
          .findFirst().orElseThrow();
    }
    Files.writeString(commit, "{ not json");
    assertOneLineError(CliTest.run("query", table), commit.toString());
    assertOneLineError(CliTest.run("timeline", table), commit.toString());
  }
}
