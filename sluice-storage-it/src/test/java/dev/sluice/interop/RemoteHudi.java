package dev.sluice.interop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * The Hudi 0.15 oracle pointed at a table on a remote store ({@code hdfs://}, {@code s3a://}): every call passes
 * the same Hadoop settings Sluice was given, as {@code --conf} pairs.
 */
public final class RemoteHudi {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HudiOracle oracle;
  private final Map<String, String> settings;

  private RemoteHudi(HudiOracle oracle, Map<String, String> settings) {
    this.oracle = oracle;
    this.settings = Map.copyOf(settings);
  }

  /** The built oracle with {@code settings} for every call. */
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

  /** A snapshot read as Hudi does it, optionally as of an instant; rows carry the meta fields. */
  public List<GenericRecord> read(String table, Optional<String> asOf) {
    List<String> args = new ArrayList<>(List.of("read", "--table", table, "--query", "snapshot"));
    asOf.ifPresent(i -> {
      args.add("--as-of");
      args.add(i);
    });
    return HudiOracle.parseRows(oracle.run(withConf(args)));
  }

  /** The active timeline: time, action, state per instant. */
  public List<Map<String, String>> timeline(String table) {
    List<Map<String, String>> out = new ArrayList<>();
    for (String line : oracle.run(withConf(List.of("timeline", "--table", table)))) {
      if (line.isBlank()) {
        continue;
      }
      try {
        JsonNode node = JSON.readTree(line);
        Map<String, String> instant = new LinkedHashMap<>();
        node.fields().forEachRemaining(e -> instant.put(e.getKey(), e.getValue().asText()));
        out.add(instant);
      } catch (IOException e) {
        throw new AssertionError("bad timeline line from the oracle: " + line, e);
      }
    }
    return out;
  }
}
