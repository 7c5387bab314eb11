package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice read-cost}: the steps it measures and the facts that must hold between them (never the times). */
class ReadCostCliTest {
  private static final Pattern FIELD = Pattern.compile("(\\w+)=(\\S+)");

  @TempDir
  Path dir;

  @Test
  void measuresFourStepsOfOneMergeOnReadTable() {
    int rows = 800;
    CliTest.Run r = CliTest.run("read-cost", dir.resolve("rc").toString(), "--rows", String.valueOf(rows), "--batch", "60",
        "--file-groups", "8", "--runs", "1");
    assertEquals(0, r.exit(), r.err() + r.out());
    List<Map<String, String>> steps = new ArrayList<>();
    for (String line : r.out().lines().filter(l -> l.startsWith("READCOST ")).toList()) {
      Map<String, String> f = new HashMap<>();
      Matcher m = FIELD.matcher(line);
      while (m.find()) {
        f.put(m.group(1), m.group(2));
      }
      steps.add(f);
    }
    assertEquals(List.of("after-1", "after-5", "after-10", "after-compaction"),
        steps.stream().map(s -> s.get("step")).toList(), r.out());
    for (Map<String, String> s : steps) {
      assertEquals(rows, Long.parseLong(s.get("rows")), "updates only: the snapshot keeps every key once " + s);
      assertEquals(rows, Long.parseLong(s.get("ro_rows")), "base files hold every key " + s);
      for (String k : List.of("snapshot_ms", "ro_ms", "log_files", "log_blocks", "log_bytes", "delta_commits")) {
        assertTrue(Long.parseLong(s.get(k)) >= 0, k + " " + s);
      }
      Double.parseDouble(s.get("ratio"));
    }
    assertEquals(List.of("1", "5", "10", "10"), steps.stream().map(s -> s.get("delta_commits")).toList());
    // 60 scattered updates a commit reach all 8 file groups: every commit adds one block to each group's log
    for (int i = 0; i < 3; i++) {
      Map<String, String> s = steps.get(i);
      assertTrue(num(s, "log_files") >= 1, s.toString());
      if (i > 0) {
        Map<String, String> prev = steps.get(i - 1);
        assertTrue(num(s, "log_files") > num(prev, "log_files"), "each delta commit adds log files " + s);
        assertTrue(num(s, "log_blocks") > num(prev, "log_blocks"), "each delta commit appends blocks " + s);
        assertTrue(num(s, "log_bytes") > num(prev, "log_bytes"), "each delta commit appends bytes " + s);
      }
    }
    assertEquals(8 * 10, num(steps.get(2), "log_blocks"), "one block per file group per delta commit");
    Map<String, String> compacted = steps.get(3);
    assertEquals(0, num(compacted, "log_files"), compacted.toString());
    assertEquals(0, num(compacted, "log_blocks"), compacted.toString());
    assertEquals(0, num(compacted, "log_bytes"), compacted.toString());
    assertTrue(r.out().contains("after-compaction"), r.out());
    assertTrue(r.out().matches("(?s).*compaction \\d{17}: 8 base files, 800 records, \\d+ log files compacted.*"), r.out());

    CliTest.Run bad = CliTest.run("read-cost", dir.resolve("bad").toString(), "--batch", "0");
    assertEquals(1, bad.exit(), "a bad option is an error");
    assertTrue(bad.err().startsWith("error: "), bad.err());
  }

  private static long num(Map<String, String> step, String key) {
    return Long.parseLong(step.get(key));
  }
}
