package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice repair} on a version 9 table through the real launcher in a child process: a garbled log block and a
 * damaged completed delta commit ({@code .hoodie/timeline/<requested>_<completion>.deltacommit}) are reported by the
 * dry run (which changes nothing) and fixed by {@code --apply}; the table then reads the rows it should and the
 * damaged originals are in the repair's backup folder.
 */
class RepairV9BinSluiceIT {
  @TempDir
  Path dir;

  record Result(int exit, String out, String err) {
  }

  private Result sluice(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(BinSluiceIT.repoRoot().resolve("bin/sluice").toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(dir.resolve("out.txt").toFile())
        .redirectError(dir.resolve("err.txt").toFile());
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("bin/sluice " + String.join(" ", args) + " timed out");
    }
    return new Result(p.exitValue(), Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8),
        Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8));
  }

  private Path input(String tag, int from, int to, long ts) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < to; i++) {
      sb.append(String.format("{\"id\":\"k%03d\",\"ts\":%d,\"v\":\"%s%d\"}%n", i, ts, tag, i));
    }
    return Files.writeString(dir.resolve(tag + ".jsonl"), sb.toString());
  }

  private Result ok(String... args) throws IOException, InterruptedException {
    Result r = sluice(args);
    assertEquals(0, r.exit(), String.join(" ", args) + ": " + r.err());
    return r;
  }

  private static Map<String, String> rows(Result r) {
    Map<String, String> out = new TreeMap<>();
    r.out().lines().forEach(l -> out.put(l.substring(l.indexOf("\"id\"")), l));
    return out;
  }

  private Map<String, String> tree() throws IOException {
    try (Stream<Path> s = Files.walk(dir.resolve("t"))) {
      Map<String, String> out = new TreeMap<>();
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        out.put(dir.relativize(p).toString(), Files.size(p) + ":" + Files.getLastModifiedTime(p).toMillis() + ":"
            + Arrays.hashCode(Files.readAllBytes(p)));
      }
      return out;
    }
  }

  @Test
  void aVersion9TableIsRepairedThroughBinSluice() throws IOException, InterruptedException {
    String t = dir.resolve("t").toString();
    ok("create", t, "--type", "mor", "--table-version", "9", "--record-key", "id", "--precombine", "ts",
        "--columns", "id string, ts long, v string");
    ok("insert", t, input("a", 0, 100, 1).toString());
    ok("upsert", t, input("b", 0, 50, 2).toString());
    ok("upsert", t, input("c", 50, 100, 3).toString());
    assertTrue(Files.readString(dir.resolve("t/.hoodie/hoodie.properties")).contains("hoodie.table.version=9"));
    List<Path> commits;
    try (Stream<Path> s = Files.list(dir.resolve("t/.hoodie/timeline"))) {
      commits = s.filter(p -> p.getFileName().toString().matches("\\d+_\\d+\\.deltacommit")).sorted()
          .collect(Collectors.toList());
    }
    assertEquals(3, commits.size(), commits.toString());
    String bTime = commits.get(1).getFileName().toString().split("_")[0];
    Path bLog;
    try (Stream<Path> s = Files.list(dir.resolve("t"))) {
      bLog = s.filter(p -> p.getFileName().toString().contains("_" + bTime + ".log.")).findFirst().orElseThrow();
    }
    // damage: the "b" delta commit's log block garbled, the "c" delta commit's completed file cut in half
    try (RandomAccessFile f = new RandomAccessFile(bLog.toFile(), "rw")) {
      f.seek(f.length() / 2);
      f.write(new byte[64]);
    }
    byte[] garbled = Files.readAllBytes(bLog);
    Path cCommit = commits.get(2);
    byte[] cut = Arrays.copyOf(Files.readAllBytes(cCommit), (int) Files.size(cCommit) / 2);
    Files.write(cCommit, cut);

    Map<String, String> before = tree();
    Result dry = ok("repair", t);
    assertTrue(dry.out().contains("CORRUPT_LOG_BLOCK") && dry.out().contains(bLog.toString()), dry.out());
    assertTrue(dry.out().contains("BROKEN_INSTANT") && dry.out().contains(cCommit.toString()), dry.out());
    assertTrue(dry.out().contains("Dry run: nothing was changed"), dry.out());
    assertEquals(before, tree(), "a dry run changes nothing");

    Result apply = ok("repair", t, "--apply");
    assertTrue(apply.out().contains("fixed:"), apply.out());
    assertEquals("No damage found.", ok("repair", t).out().trim());
    Result q = ok("query", t);
    assertEquals("", q.err());
    Map<String, String> rows = rows(q);
    assertEquals(100, rows.size());
    // the garbled block's 50 updates are gone (the report said so); the other delta commit's 50 are all there
    assertEquals(50, rows.values().stream().filter(r -> r.contains("\"v\":\"a")).count());
    assertEquals(50, rows.values().stream().filter(r -> r.contains("\"v\":\"c")).count());
    assertTrue(ok("timeline", t).out().lines().anyMatch(l -> l.startsWith(commits.get(2).getFileName().toString()
        .split("_")[0]) && l.contains("50")), "the rebuilt delta commit lists its 50 updates");
    // the originals are in the backup folder
    Path backups = dir.resolve("t/.hoodie/.repair");
    List<Path> kept;
    try (Stream<Path> s = Files.walk(backups)) {
      kept = s.filter(Files::isRegularFile).filter(p -> !p.toString().contains("/.work/")).toList();
    }
    Path keptLog = kept.stream().filter(p -> p.getFileName().equals(bLog.getFileName())).findFirst().orElseThrow();
    assertArrayEquals(garbled, Files.readAllBytes(keptLog));
    Path keptCommit = kept.stream().filter(p -> p.getFileName().equals(cCommit.getFileName())).findFirst().orElseThrow();
    assertArrayEquals(cut, Files.readAllBytes(keptCommit));
    assertFalse(Files.exists(bLog), "the log file's one block was damaged: the file goes");
  }
}
