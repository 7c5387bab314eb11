package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile partition values through every write operation of the CLI, on both table types, with plain, hive-style
 * and two-field partition paths, URL-encoding off and on; then the table services and the commands that take an
 * instant, given hostile instants. Each value is refused (exit 3, one error line naming file, line and field, nothing
 * written at all) or, where it is safe, written inside the table (escaped with urlencode on, an empty value in Hudi's
 * default partition); nothing is ever created, changed or deleted outside the table's folder.
 */
class HostileInputCliTest {
  private static final String LONG = "y".repeat(300);
  /** The hostile values: name for messages, value. */
  private static final Map<String, String> VALUES = new LinkedHashMap<>();

  static {
    VALUES.put("dot-dot", "..");
    VALUES.put("up-two", "../../x");
    VALUES.put("dot", ".");
    VALUES.put("empty", "");
    VALUES.put("climb", "a/../../b");
    VALUES.put("nul", "a\0b");
    VALUES.put("absolute", "/etc/sluice-escape");
    VALUES.put("long", LONG);
    VALUES.put("double-slash", "a//b");
  }

  /** What Hudi's escaping makes of each value (urlencode on). */
  private static final Map<String, String> ENCODED = Map.of("..", "..", "../../x", "..%2F..%2Fx", ".", ".",
      "a/../../b", "a%2F..%2F..%2Fb", "a\0b", "a%00b", "/etc/sluice-escape", "%2Fetc%2Fsluice-escape", LONG, LONG,
      "a//b", "a%2F%2Fb");

  private enum Layout { PLAIN, HIVE, TWO_FIELDS }

  @TempDir
  Path tmp;
  private int tried;
  private int refused;
  private int writtenInside;

  /** The folder a value must land in, or null if it must be refused; the rules spelled out per layout. */
  private static String expectedFolder(Layout layout, boolean urlEncode, String v) {
    boolean hive = layout == Layout.HIVE;
    String suffix = layout == Layout.TWO_FIELDS ? "/ok" : "";
    if (v.isEmpty()) {
      return (hive ? "p=" : "") + "__HIVE_DEFAULT_PARTITION__" + suffix;
    }
    if (v.equals(LONG)) {
      return null;
    }
    if (urlEncode) {
      String e = ENCODED.get(v);
      // a level starting with '.' is a hidden folder no query lists: refused unless hive style puts "p=" first
      return !hive && e.startsWith(".") ? null : (hive ? "p=" : "") + e + suffix;
    }
    // without encoding: hive style keeps '.' and '..' as harmless "p=.." names; every other hostile value is refused
    return hive && (v.equals(".") || v.equals("..")) ? "p=" + v : null;
  }

  @Test
  void hostileValuesAreRefusedOrKeptInsideTheTable() throws IOException {
    Path in = Files.createDirectories(tmp.resolve("in"));
    Path tables = Files.createDirectories(tmp.resolve("work/tables"));
    Files.writeString(tmp.resolve("work/neighbour.txt"), "a file next to the tables");
    boolean all = Boolean.getBoolean("sluice.hostile.all");
    int n = 0;
    for (Layout layout : Layout.values()) {
      for (boolean urlEncode : new boolean[] {false, true}) {
        // the default run takes each layout and encoding once, alternating the table type; the extended run
        // (-Dsluice.hostile.all=true) takes both types for each
        for (String type : all ? List.of("cow", "mor") : List.of(n++ % 2 == 0 ? "cow" : "mor")) {
          Path table = tables.resolve(type + "-" + layout + "-" + urlEncode);
          exercise(table, in, type, layout, urlEncode, all, tables.toFile().list().length);
        }
      }
    }
    System.out.printf("hostile partition values: %d tried, %d refused, %d written inside the table (escaped or the "
        + "default partition), files outside the tables created or changed: 0%n", tried, refused, writtenInside);
    assertEquals(tried, refused + writtenInside);
    // the extended run tries every value with every operation on every table; the default run each refused value
    // with one operation per table, rotating, so that every value meets every operation across the tables
    assertEquals(all ? 432 : 216 - 3 * 124 / 4, tried);
  }

  private void exercise(Path table, Path in, String type, Layout layout, boolean urlEncode, boolean all,
      int tableNumber) throws IOException {
    List<String> create = new ArrayList<>(List.of("create", table.toString(), "--type", type, "--record-key", "id",
        "--precombine", "ts", "--columns", "id string, ts long, p string, q string",
        "--conf", "hoodie.datasource.write.partitionpath.urlencode=" + urlEncode,
        "--conf", "hoodie.index.bloom.num_entries=1000"));
    create.addAll(layout == Layout.TWO_FIELDS ? List.of("--partition-path", "p,q") : List.of("--partition-path", "p"));
    if (layout == Layout.HIVE) {
      create.add("--hive-style");
    }
    CliTest.Run c = CliTest.run(create.toArray(String[]::new));
    assertEquals(0, c.exit(), c.err());
    Map<String, Long> outside = tree(tmp, table, in);
    String where = table.getFileName().toString();
    int key = 0;
    List<String> ops = List.of("insert", "upsert", "bulk-insert", "delete");
    for (int o = 0; o < ops.size(); o++) {
      String op = ops.get(o);
      List<String> accepted = new ArrayList<>();
      int valueNumber = 0;
      for (Map.Entry<String, String> v : VALUES.entrySet()) {
        String folder = expectedFolder(layout, urlEncode, v.getValue());
        if (folder != null) {
          tried++;
          accepted.add(v.getValue());
          continue;
        }
        if (!all && (valueNumber++ + tableNumber) % ops.size() != o) {
          continue;
        }
        tried++;
        Path file = in.resolve(op + "-" + v.getKey() + ".json");
        Files.writeString(file, record("good-" + key++, "fine") + "\n" + record("bad-" + key++, v.getValue()) + "\n");
        Map<String, Long> before = tree(tmp, in);
        CliTest.Run r = CliTest.run(op, table.toString(), file.toString());
        String what = where + " " + op + " " + v.getKey() + ": " + r.err();
        assertEquals(3, r.exit(), what);
        assertTrue(r.err().startsWith("error: Bad input at " + file.getFileName() + ":2") && r.err().contains(
            "field 'p'") && r.err().lines().count() == 1, what);
        assertEquals(before, tree(tmp, in), "something was written for " + what);
        refused++;
      }
      // the values that are safe (escaped, or Hudi's default partition) are written, all in one commit
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < accepted.size(); i++) {
        sb.append(record((op.equals("bulk-insert") ? "b" : "k") + i, accepted.get(i))).append('\n');
      }
      if (accepted.isEmpty()) {
        continue;
      }
      Path file = in.resolve(op + "-accepted.json");
      Files.writeString(file, sb.toString());
      CliTest.Run r = CliTest.run(op, table.toString(), file.toString());
      assertEquals(0, r.exit(), where + " " + op + ": " + r.err());
      for (String v : accepted) {
        String folder = expectedFolder(layout, urlEncode, v);
        assertTrue(Files.isRegularFile(table.resolve(folder).resolve(".hoodie_partition_metadata")),
            where + ": no partition " + folder);
      }
      writtenInside += accepted.size();
      if (op.equals("upsert")) {
        // every accepted value reads back as it was given, once
        CliTest.Run q = CliTest.run("query", table.toString(), "--columns", "id,p");
        assertEquals(0, q.exit(), q.err());
        assertEquals(accepted.size(), q.out().lines().filter(l -> l.contains("\"k")).count(), q.out());
      }
      assertEquals(outside, tree(tmp, table, in), where + " " + op + " changed something outside the table");
    }
    services(table, type);
    if (all || tableNumber == 1) {
      hostileInstants(table);
    }
    assertEquals(outside, tree(tmp, table, in), where + ": something outside the table changed");
  }

  /** Compaction, clean, archive, savepoint, restore, rollback over the table's partitions. */
  private void services(Path table, String type) {
    String t = table.toString();
    List<List<String>> commands = new ArrayList<>();
    if (type.equals("mor")) {
      commands.add(List.of("compact", t, "--schedule", "--force"));
      commands.add(List.of("compact", t, "--run"));
    }
    commands.add(List.of("savepoint", t));
    commands.add(List.of("clean", t, "--conf", "hoodie.cleaner.commits.retained=1"));
    commands.add(List.of("archive", t, "--conf", "hoodie.keep.min.commits=2", "--conf", "hoodie.keep.max.commits=3",
        "--conf", "hoodie.cleaner.commits.retained=1"));
    for (List<String> cmd : commands) {
      CliTest.Run r = CliTest.run(cmd.toArray(String[]::new));
      assertEquals(0, r.exit(), cmd + ": " + r.err());
    }
    CliTest.Run sp = CliTest.run("timeline", t);
    String savepoint = sp.out().lines().filter(l -> l.contains("savepoint")).findFirst().orElseThrow()
        .replaceAll("^\\s*(\\d+).*", "$1");
    CliTest.Run restore = CliTest.run("restore", t, savepoint);
    assertEquals(0, restore.exit(), restore.err());
    CliTest.Run rollback = CliTest.run("rollback", t);
    assertTrue(rollback.exit() == 0 || rollback.err().startsWith("error: "), rollback.err());
  }

  /** Commands that take an instant or a file, given paths instead: refused, nothing written. */
  private void hostileInstants(Path table) {
    String t = table.toString();
    for (String bad : List.of("../../x", "/etc/passwd", "..", "a\0b")) {
      for (List<String> cmd : List.of(List.of("rollback", t, bad), List.of("savepoint", t, bad),
          List.of("savepoint", t, bad, "--delete"), List.of("restore", t, bad), List.of("compact", t, "--run", bad),
          List.of("query", t, "--as-of", bad), List.of("logs", t, bad))) {
        CliTest.Run r = CliTest.run(cmd.toArray(String[]::new));
        assertNotEquals(0, r.exit(), cmd + " " + r.out());
        assertTrue(r.err().startsWith("error: ") && r.err().lines().count() == 1, cmd + ": " + r.err());
      }
    }
  }

  private static String record(String id, String p) {
    return "{\"id\":\"" + id + "\",\"ts\":1,\"p\":" + json(p) + ",\"q\":\"ok\"}";
  }

  private static String json(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c < ' ') {
        sb.append(String.format("\\u%04x", (int) c));
      } else if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  /** Files and folders under {@code root} (sizes; -1 for folders), leaving out the {@code skip} folders. */
  static Map<String, Long> tree(Path root, Path... skip) throws IOException {
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.toList()) {
        if (Stream.of(skip).noneMatch(p::startsWith)) {
          out.put(root.relativize(p).toString(), Files.isDirectory(p) ? -1L : Files.size(p));
        }
      }
    }
    return out;
  }
}
