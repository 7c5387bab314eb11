package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ConfigKey;
import dev.sluice.api.ConfigKeys;
import dev.sluice.api.WriteOperation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code --help} on every command, the write verbs' descriptions, {@code sluice help TOPIC} and completion. */
class HelpCliTest {
  @TempDir
  Path dir;

  /** Every command path of the tree, e.g. [create], [metadata, init], found by walking picocli's model. */
  static List<List<String>> commandPaths() {
    List<List<String>> paths = new ArrayList<>();
    walk(Main.commandLine(), new ArrayList<>(), paths);
    return paths;
  }

  private static void walk(CommandLine cmd, List<String> path, List<List<String>> out) {
    for (Map.Entry<String, CommandLine> e : cmd.getSubcommands().entrySet()) {
      List<String> p = new ArrayList<>(path);
      p.add(e.getKey());
      out.add(p);
      walk(e.getValue(), p, out);
    }
  }

  /** Usage text wrapped to the terminal width, as one line. */
  private static String flat(String usage) {
    return usage.replaceAll("\\s+", " ");
  }

  @Test
  void aCommandBuiltAloneIsTheCommandOfTheFullTree() {
    CommandLine full = Main.commandLine();
    assertTrue(full.getSubcommands().size() > 30, full.getSubcommands().keySet().toString());
    for (Map.Entry<String, CommandLine> e : full.getSubcommands().entrySet()) {
      String name = e.getKey();
      CommandLine fromTree = e.getValue();
      // the registry's name is the command's own (its @Command name), so usage and completion name it alike
      assertEquals(name, fromTree.getCommandSpec().name(), name);
      boolean alone = !name.equals("help") && !name.equals("completion");
      assertEquals(alone ? java.util.Optional.of(name) : java.util.Optional.empty(), Main.alone(name), name);
      if (alone) {
        CommandLine single = Main.commandLine(java.util.Optional.of(name));
        assertEquals(Set.of(name), single.getSubcommands().keySet(), name);
        assertEquals(fromTree.getUsageMessage(), single.getSubcommands().get(name).getUsageMessage(), name);
      }
    }
    // words that are not a command keep every command, so picocli can suggest the nearest
    assertEquals(java.util.Optional.empty(), Main.alone("upsrt"));
    assertEquals(java.util.Optional.empty(), Main.alone("--help"));
    CliTest.Run r = CliTest.run("upsrt");
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("upsert"), r.err());
    CliTest.Run bare = CliTest.run();
    assertTrue(bare.out().contains("bulk-insert") && bare.out().contains("describe"), bare.out());
  }

  @Test
  void helpAndHOnEveryCommandPrintUsageAndExitZeroWithoutItsArguments() {
    List<List<String>> paths = commandPaths();
    assertTrue(paths.contains(List.of("metadata", "init")) && paths.contains(List.of("bulk-insert"))
        && paths.size() > 25, paths.toString());
    for (List<String> path : paths) {
      for (String flag : List.of("--help", "-h")) {
        List<String> args = new ArrayList<>(path);
        args.add(flag);
        CliTest.Run r = CliTest.run(args.toArray(String[]::new));
        assertEquals(0, r.exit(), args + ": " + r.err());
        assertTrue(r.out().startsWith("Usage: sluice " + String.join(" ", path)), args + ": " + r.out());
        assertEquals("", r.err(), args.toString());
      }
    }
    CliTest.Run top = CliTest.run("--help");
    assertEquals(0, top.exit());
    assertTrue(top.out().contains("sluice help"), top.out());
  }

  @Test
  void eachWriteVerbSaysWhatItDoesToExistingKeys() {
    Set<String> descriptions = new HashSet<>();
    for (WriteOperation op : WriteOperation.values()) {
      CliTest.Run r = CliTest.run(WriteCommand.verb(op), "--help");
      assertEquals(0, r.exit(), r.err());
      descriptions.add(r.out());
    }
    assertEquals(WriteOperation.values().length, descriptions.size(), "one description per verb");
    assertTrue(flat(CliTest.run("bulk-insert", "--help").out()).contains("does not look up keys already in the table"));
    assertTrue(flat(CliTest.run("bulk-insert", "--help").out()).contains("ends up twice"));
    assertTrue(flat(CliTest.run("upsert", "--help").out()).contains("ordering (precombine) value wins"));
    assertTrue(flat(CliTest.run("insert", "--help").out()).contains("a key already stored is updated"));
    assertTrue(flat(CliTest.run("delete", "--help").out()).contains("a key the table does not hold is skipped"));
    // the listing shows each verb's first line
    String list = flat(CliTest.run("--help").out());
    assertTrue(list.contains("Load records without looking up existing keys"), list);
    assertTrue(list.contains("Update records whose key exists, insert the others"), list);
  }

  @Test
  void whatTheHelpSaysOfExistingKeysIsWhatTheWritesDo() throws IOException {
    String t = dir.resolve("t").toString();
    assertEquals(0, CliTest.run("create", t, "--record-key", "id", "--precombine", "ts", "--columns",
        "id string, ts long, v string").exit());
    Path first = dir.resolve("1.jsonl");
    Files.writeString(first, "{\"id\":\"a\",\"ts\":5,\"v\":\"one\"}\n{\"id\":\"b\",\"ts\":5,\"v\":\"one\"}\n");
    assertEquals(0, CliTest.run("insert", t, first.toString()).exit());
    Path second = dir.resolve("2.jsonl");
    Files.writeString(second, "{\"id\":\"a\",\"ts\":1,\"v\":\"older\"}\n{\"id\":\"b\",\"ts\":9,\"v\":\"newer\"}\n");
    // insert: stored keys are updated, the ordering field decides
    assertTrue(CliTest.run("insert", t, second.toString()).out().contains("0 inserted, 1 updated"));
    Path del = dir.resolve("del.jsonl");
    Files.writeString(del, "{\"id\":\"b\"}\n{\"id\":\"nowhere\"}\n");
    CliTest.Run d = CliTest.run("delete", t, del.toString());
    assertEquals(0, d.exit(), d.err());
    assertTrue(d.out().contains("0 inserted, 0 updated, 1 deleted"), d.out());
    // bulk-insert: no lookup, the stored key a ends up twice
    Path again = dir.resolve("3.jsonl");
    Files.writeString(again, "{\"id\":\"a\",\"ts\":7,\"v\":\"dup\"}\n");
    assertEquals(0, CliTest.run("bulk-insert", t, again.toString()).exit());
    List<String> rows = CliTest.run("query", t, "--format", "csv", "--columns", "id,v").out().lines().sorted().toList();
    assertEquals(List.of("a,dup", "a,one", "id,v"), rows);
  }

  @Test
  void helpAloneListsTopicsAndCommandsAndAnUnknownTopicExitsTwo() {
    CliTest.Run r = CliTest.run("help");
    assertEquals(0, r.exit(), r.err());
    for (HelpTopics.Topic t : HelpTopics.all()) {
      assertTrue(r.out().contains("  " + t.name() + " "), t.name() + " in " + r.out());
    }
    for (List<String> path : commandPaths()) {
      if (path.size() == 1) {
        assertTrue(r.out().contains("  " + path.get(0)), path + " in " + r.out());
      }
    }
    CliTest.Run bad = CliTest.run("help", "nosuchtopic");
    assertEquals(2, bad.exit());
    assertTrue(bad.err().contains("no help topic or command 'nosuchtopic'") && bad.err().contains("java-opts"),
        bad.err());
    CliTest.Run nested = CliTest.run("help", "metadata", "init");
    assertEquals(0, nested.exit(), nested.err());
    assertTrue(nested.out().startsWith("Usage: sluice metadata init"), nested.out());
  }

  @Test
  void theConfigTopicListsEveryKeyWithItsDefault() {
    CliTest.Run r = CliTest.run("help", "config");
    assertEquals(0, r.exit(), r.err());
    for (ConfigKey<?> k : ConfigKeys.all()) {
      String head = k.name() + "  (default: " + (k.defaultValue() == null ? "none" : k.defaultValue()) + ")";
      assertTrue(r.out().contains(head), head);
      String firstWords = k.doc().substring(0, Math.min(20, k.doc().length()));
      assertTrue(r.out().contains(firstWords.split(" ")[0]), k.name());
    }
  }

  @Test
  void theWhereTopicsExamplesParseAndItsErrorExampleIsTheRealOne() throws IOException {
    String text = CliTest.run("help", "where").out();
    String t = dir.resolve("t").toString();
    assertEquals(0, CliTest.run("create", t, "--record-key", "id", "--precombine", "ts", "--columns",
        "id string, ts long, city string, fare double, note string, order struct<total: int>").exit());
    int examples = 0;
    for (String line : text.lines().toList()) {
      if (line.startsWith("  --where \"")) {
        String expr = line.substring("  --where \"".length(), line.length() - 1).replace("\\\"", "\"");
        CliTest.Run q = CliTest.run("query", t, "--where", expr);
        assertEquals(0, q.exit(), expr + ": " + q.err());
        examples++;
      }
    }
    assertEquals(3, examples, text);
    CliTest.Run bad = CliTest.run("query", t, "--where", "city = ");
    String shown = text.lines().filter(l -> l.trim().startsWith("error:")).findFirst().orElseThrow().trim();
    assertTrue(bad.err().startsWith(shown.substring(0, shown.indexOf("..."))), bad.err() + " vs " + shown);
  }

  @Test
  void formatsAndJavaOptsTopics() throws IOException {
    String formats = CliTest.run("help", "formats").out();
    for (String ext : List.of(".json", ".jsonl", ".ndjson", ".csv", ".avro", ".parquet")) {
      assertTrue(formats.contains(ext), ext);
    }
    String opts = CliTest.run("help", "SLUICE_JAVA_OPTS").out();
    assertTrue(opts.contains("-XX:+UseParallelGC"), opts);
    // the default the topic names is the launcher's
    String launcher = Files.readString(BinSluiceIT.repoRoot().resolve("bin/sluice"));
    assertTrue(launcher.contains("${SLUICE_JAVA_OPTS:--XX:+UseParallelGC}"), "bin/sluice changed its default");
    // and the first heap of upsert and delete it names is the launcher's too
    assertTrue(opts.contains("-XX:InitialRAMPercentage=12.5 -XX:NewRatio=1"), opts);
    assertTrue(launcher.contains("-XX:InitialRAMPercentage=12.5") && launcher.contains("-XX:NewRatio=1 ${SLUICE_JAVA_OPTS"),
        "bin/sluice changed the first heap of upserts");
  }

  @Test
  void completionScriptNamesEveryCommandAndBashAcceptsIt() throws IOException, InterruptedException {
    CliTest.Run r = CliTest.run("completion");
    assertEquals(0, r.exit(), r.err());
    for (List<String> path : commandPaths()) {
      assertTrue(r.out().contains(path.get(path.size() - 1)), path.toString());
    }
    assertTrue(r.out().contains("--record-key") && r.out().contains("--where"));
    Path script = dir.resolve("sluice_completion");
    Files.writeString(script, r.out(), StandardCharsets.UTF_8);
    Process p = new ProcessBuilder("bash", "-n", script.toString()).redirectErrorStream(true).start();
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    String msg = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), msg);
    // and sourced into a shell it registers the completion function for sluice
    Process s = new ProcessBuilder("bash", "-c", "source " + script + " && complete -p sluice").redirectErrorStream(true)
        .start();
    assertTrue(s.waitFor(30, TimeUnit.SECONDS));
    String reg = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, s.exitValue(), reg);
    assertTrue(reg.contains("sluice"), reg);
  }
}
