package dev.sluice.interop;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * The Hudi 0.15 oracle pointed at a table on a remote store ({@code hdfs://}, {@code s3a://}): every command
 * carries the Hadoop settings Sluice was given, as {@code --conf} pairs.
 */
public final class RemoteHudi {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MARKER = "#batch ";

  private final HudiOracle oracle;
  private final Map<String, String> settings;

  /**
   * What Hudi read in one oracle JVM.
   *
   * @param latest the snapshot rows (with meta fields), sorted by key
   * @param readOptimized the read-optimized rows (base files only; the snapshot on Copy-on-Write)
   * @param asOf the rows as of each instant asked for, in the order asked
   * @param timeline the active timeline: time, action, state per instant
   */
  public record Reads(List<GenericRecord> latest, List<GenericRecord> readOptimized, List<List<GenericRecord>> asOf,
      List<Map<String, String>> timeline) {
  }

  private RemoteHudi(HudiOracle oracle, Map<String, String> settings) {
    this.oracle = oracle;
    this.settings = Map.copyOf(settings);
  }

  /** The built oracle with {@code settings} for every command. */
  public static RemoteHudi locate(Map<String, String> settings) {
    return new RemoteHudi(HudiOracle.locate(), settings);
  }

  private List<String> withConf(List<String> args) {
    List<String> out = new ArrayList<>(args);
    settings.forEach((k, v) -> {
      out.add("--conf");
      out.add(k + "=" + v);
    });
    return out;
  }

  private static List<String> readArgs(String table, Optional<String> asOf) {
    return readArgs(table, "snapshot", asOf);
  }

  private static List<String> readArgs(String table, String query, Optional<String> asOf) {
    List<String> args = new ArrayList<>(List.of("read", "--table", table, "--query", query));
    asOf.ifPresent(i -> {
      args.add("--as-of");
      args.add(i);
    });
    return args;
  }

  /** A snapshot read as Hudi does it; rows carry the meta fields. */
  public List<GenericRecord> read(String table) {
    return HudiOracle.parseRows(oracle.run(withConf(readArgs(table, Optional.empty()))));
  }

  /**
   * The snapshot, the read-optimized view, the snapshot as of each of {@code instants}, and the timeline, read in
   * one oracle JVM.
   */
  public Reads reads(String table, List<String> instants) {
    List<List<String>> commands = new ArrayList<>();
    commands.add(withConf(readArgs(table, Optional.empty())));
    commands.add(withConf(readArgs(table, "read_optimized", Optional.empty())));
    for (String i : instants) {
      commands.add(withConf(readArgs(table, Optional.of(i))));
    }
    commands.add(withConf(List.of("timeline", "--table", table)));
    List<List<String>> out = batch(commands);
    List<List<GenericRecord>> asOf = new ArrayList<>();
    for (int i = 0; i < instants.size(); i++) {
      asOf.add(HudiOracle.parseRows(out.get(2 + i)));
    }
    return new Reads(HudiOracle.parseRows(out.get(0)), HudiOracle.parseRows(out.get(1)), asOf,
        HudiOracle.parseTimeline(out.get(out.size() - 1)));
  }

  /** Runs {@code commands} in one oracle JVM ({@code batch}) and returns each one's output lines. */
  private List<List<String>> batch(List<List<String>> commands) {
    StringBuilder script = new StringBuilder();
    for (List<String> c : commands) {
      try {
        script.append(JSON.writeValueAsString(c)).append('\n');
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Path file = HudiOracle.writeTemp(Path.of(System.getProperty("java.io.tmpdir")), "remote-batch", ".txt",
        script.toString());
    List<String> lines;
    try {
      lines = oracle.run(List.of("batch", "--script", file.toString()));
    } finally {
      HudiOracle.deleteIfExists(file);
    }
    List<List<String>> sections = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith(MARKER)) {
        if (!line.split(" ")[2].equals("0")) {
          throw new AssertionError("oracle command " + commands.get(sections.size()) + " failed");
        }
        sections.add(new ArrayList<>());
      } else if (!sections.isEmpty()) {
        sections.get(sections.size() - 1).add(line);
      }
    }
    if (sections.size() != commands.size()) {
      throw new AssertionError("oracle batch returned " + sections.size() + " sections for " + commands.size());
    }
    return sections;
  }
}
