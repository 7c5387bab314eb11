package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Progress through the real launcher: periodic lines on stderr when it is not a terminal (stdout unchanged, nothing
 * with --quiet), and under a pseudo-terminal (util-linux {@code script}) a bar redrawn in place with carriage returns
 * and a final line per step.
 */
class ProgressCliIT {
  private static final int RECORDS = 30_000;
  private static final Pattern LINE = Pattern.compile(
      "progress: (reading input|tagging|writing file groups|query|compaction) [0-9,]+(/[0-9,]+)? "
          + "(records|file slices|file groups)( \\(\\d+%\\))?(, [0-9,]+ records)?, [0-9.,-]+( records)?/s, "
          + "(ETA|elapsed) .+"
          + "|progress: (reading input|tagging|writing file groups|query|compaction): [0-9,]+ (of [0-9,]+ )?"
          + "(records|file slices|file groups)(, [0-9,]+ records)? in .+");
  /** A running line of a step counted in file slices or groups, with the records inside them. */
  private static final Pattern RECORDS_INSIDE = Pattern.compile(
      "progress: (query|compaction) ([0-9,]+)/[0-9,]+ (file slices|file groups) \\(\\d+%\\), ([0-9,]+) records, .+");

  @TempDir
  Path dir;

  record Result(int exit, String out, String err) {
  }

  private Result run(List<String> cmd) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", cmd) + " timed out");
    }
    return new Result(p.exitValue(), Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8),
        Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8));
  }

  private Result sluice(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(BinSluiceIT.repoRoot().resolve("bin/sluice").toString());
    cmd.addAll(List.of(args));
    return run(cmd);
  }

  /** A Merge-on-Read table of four partitions and an input of {@link #RECORDS} new keys for it. */
  private Path table(String name) throws IOException, InterruptedException {
    Path t = dir.resolve(name);
    Result c = sluice("create", t.toString(), "--type", "MERGE_ON_READ", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double");
    assertEquals(0, c.exit(), c.err());
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < RECORDS; i++) {
      b.append(String.format(Locale.ROOT, "{\"id\":\"k%06d\",\"ts\":%d,\"city\":\"c%d\",\"fare\":%d.5}%n", i, i, i % 4, i));
    }
    Files.writeString(dir.resolve(name + ".jsonl"), b);
    return t;
  }

  @Test
  void withoutATerminalProgressIsLinesOnStderrAndQuietPrintsNone() throws IOException, InterruptedException {
    Path t = table("lines");
    String in = dir.resolve("lines.jsonl").toString();
    Result ins = sluice("insert", t.toString(), in, "--progress-interval", "0.05");
    assertEquals(0, ins.exit(), ins.err());
    assertTrue(ins.out().startsWith("Committed INSERT ") && ins.out().contains(": " + RECORDS + " inserted, "),
        ins.out());
    assertFalse(ins.out().contains("progress"), "progress on stdout: " + ins.out());
    List<String> lines = ins.err().lines().toList();
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("progress: reading input ")), ins.err());
    for (String l : lines) {
      assertTrue(LINE.matcher(l).matches(), "not a progress line: '" + l + "' in\n" + ins.err());
    }
    assertFalse(ins.err().contains("\r"), "no bar off a terminal");
    // a step that printed a line closes with its total
    if (lines.stream().anyMatch(l -> l.startsWith("progress: writing file groups "))) {
      assertTrue(ins.err().contains("progress: writing file groups: 30,000 records in "), ins.err());
    }

    Result quietUpsert = sluice("upsert", t.toString(), in, "--quiet", "--progress-interval", "0.05");
    assertEquals(0, quietUpsert.exit(), quietUpsert.err());
    assertEquals("", quietUpsert.err(), "--quiet prints no progress");
    assertTrue(quietUpsert.out().startsWith("Committed UPSERT "), quietUpsert.out());

    Result shown = sluice("query", t.toString(), "--progress-interval", "0.01");
    Result quiet = sluice("query", t.toString(), "--quiet");
    assertEquals(0, shown.exit(), shown.err());
    assertEquals(0, quiet.exit(), quiet.err());
    assertEquals(RECORDS, quiet.out().lines().count());
    assertEquals(quiet.out(), shown.out(), "the rows are the same with progress on");
    assertEquals("", quiet.err());
    assertTrue(shown.err().lines().anyMatch(l -> l.startsWith("progress: query ")), shown.err());
    shown.err().lines().forEach(l -> assertTrue(LINE.matcher(l).matches(), "not a progress line: " + l));
    // the query's last line counts the rows it returned besides its file slices
    assertTrue(shown.err().contains("progress: query: 4 file slices, 30,000 records in "), shown.err());
    assertRecordsNeverGoBack(shown.err());
  }

  /** The records counted inside slices or file groups never go back from line to line of a step. */
  private static void assertRecordsNeverGoBack(String err) {
    long last = -1;
    for (String l : err.lines().toList()) {
      Matcher m = RECORDS_INSIDE.matcher(l);
      if (m.matches()) {
        long n = Long.parseLong(m.group(4).replace(",", ""));
        assertTrue(n >= last, "records went back at '" + l + "' in\n" + err);
        last = n;
      }
    }
  }

  @Test
  void compactionRunAndWatchCountTheRecordsTheyMerge() throws IOException, InterruptedException {
    Path t = table("compact");
    String in = dir.resolve("compact.jsonl").toString();
    assertEquals(0, sluice("insert", t.toString(), in, "--quiet").exit());
    // updates of every key go to log files; the compaction merges 30,000 rows in 4 file groups
    assertEquals(0, sluice("upsert", t.toString(), in, "--quiet").exit());
    Result sched = sluice("compact", t.toString(), "--schedule", "--force");
    assertEquals(0, sched.exit(), sched.err());
    Result run = sluice("compact", t.toString(), "--run", "--progress-interval", "0.01");
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains(" 4 base files written, 30000 records"), run.out());
    run.err().lines().forEach(l -> assertTrue(LINE.matcher(l).matches(), "not a progress line: '" + l + "' in\n"
        + run.err()));
    assertTrue(run.err().contains("progress: compaction: 4 file groups, 30,000 records in "), run.err());
    assertRecordsNeverGoBack(run.err());

    // --watch shows the same for each compaction it runs
    assertEquals(0, sluice("upsert", t.toString(), in, "--quiet").exit());
    assertEquals(0, sluice("compact", t.toString(), "--schedule", "--force").exit());
    Result watch = sluice("compact", t.toString(), "--watch", "--interval", "1", "--rounds", "1",
        "--progress-interval", "0.01");
    assertEquals(0, watch.exit(), watch.err());
    assertTrue(watch.out().contains(" 4 base files written, 30000 records"), watch.out());
    assertTrue(watch.err().contains("progress: compaction: 4 file groups, 30,000 records in "), watch.err());
    watch.err().lines().forEach(l -> assertTrue(LINE.matcher(l).matches(), "not a progress line: '" + l + "' in\n"
        + watch.err()));
    Result quiet = sluice("compact", t.toString(), "--watch", "--interval", "1", "--rounds", "1", "--quiet");
    assertEquals(0, quiet.exit(), quiet.err());
    assertEquals("", quiet.err());
  }

  @Test
  void onATerminalABarIsRedrawnInPlaceAndEachStepEndsWithALine() throws IOException, InterruptedException {
    Path script = Path.of("/usr/bin/script");
    assertTrue(Files.isExecutable(script), "the terminal test runs bin/sluice under util-linux script");
    Path t = table("tty");
    String launcher = BinSluiceIT.repoRoot().resolve("bin/sluice").toString();
    // script gives the child a pseudo-terminal for stdin, stdout and stderr; its output is everything written to it
    Result r = run(List.of(script.toString(), "-qfec", launcher + " insert " + t + " " + dir.resolve("tty.jsonl"),
        "/dev/null"));
    assertEquals(0, r.exit(), r.out() + r.err());
    String screen = r.out();
    // redraws: carriage return, step label, then the bar or the count
    Matcher redraw = Pattern.compile("\r(reading input|tagging|writing file groups) +(\\[[#.]{20}\\] +\\d+% )?[0-9,]+")
        .matcher(screen);
    int redraws = 0;
    while (redraw.find()) {
      redraws++;
    }
    assertTrue(redraws >= 3, "a start redraw per step at least: " + visible(screen));
    assertTrue(Pattern.compile("\rwriting file groups \\[[#.]{20}\\] +\\d+% [0-9,]+/30,000 records ").matcher(screen)
        .find(), "the file groups' bar with its total: " + visible(screen));
    // each step's last redraw is its final line, ended by a newline (the terminal shows \r\n)
    for (String step : List.of("reading input", "tagging", "writing file groups")) {
      assertTrue(Pattern.compile("\r" + step + ": 30,000 records in [0-9.]+ s \\([0-9.,]+/s\\) *\r?\n").matcher(screen)
          .find(), step + "'s final line: " + visible(screen));
    }
    assertTrue(screen.contains("Committed INSERT "), visible(screen));
    int committed = screen.indexOf("Committed INSERT ");
    assertTrue(screen.lastIndexOf("\rwriting file groups: ") < committed, "the bar is done before the result");

    // rows to the terminal: no bar tears them apart
    Result q = run(List.of(script.toString(), "-qfec", launcher + " query " + t + " --limit 3", "/dev/null"));
    assertEquals(0, q.exit(), q.out());
    assertFalse(q.out().contains("query "), visible(q.out()));
    assertEquals(3, q.out().lines().filter(l -> l.startsWith("{")).count(), visible(q.out()));
  }

  private static String visible(String s) {
    return s.replace("\r", "<CR>");
  }
}
