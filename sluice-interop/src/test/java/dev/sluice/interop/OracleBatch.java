package dev.sluice.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Oracle commands collected and then run in one oracle JVM ({@code batch}), in order, since start-up dominates each
 * call. Each method returns a {@link Pending} result, filled by {@link #run()}.
 *
 * <pre>{@code
 * OracleBatch batch = oracle.batch();
 * var rows = batch.read(table, "snapshot", Optional.empty(), false);
 * var files = batch.fsview(table);
 * batch.run();
 * rows.get();
 * }</pre>
 */
public final class OracleBatch {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MARKER = "#batch ";

  /** A result of a batched command, available once the batch ran. */
  public static final class Pending<T> {
    private final String command;
    private T value;
    private boolean done;

    private Pending(String command) {
      this.command = command;
    }

    /** The result. */
    public T get() {
      if (!done) {
        throw new IllegalStateException("the batch with " + command + " has not run yet");
      }
      return value;
    }
  }

  private record Step<T>(List<String> args, Function<List<String>, T> parse, Pending<T> result) {
    void complete(List<String> lines) {
      result.value = parse.apply(lines);
      result.done = true;
    }
  }

  private final HudiOracle oracle;
  private final List<Step<?>> steps = new ArrayList<>();
  private final List<Path> temps = new ArrayList<>();

  OracleBatch(HudiOracle oracle) {
    this.oracle = oracle;
  }

  private <T> Pending<T> add(List<String> args, Function<List<String>, T> parse) {
    Pending<T> pending = new Pending<>(args.toString());
    steps.add(new Step<>(List.copyOf(args), parse, pending));
    return pending;
  }

  /** Like {@link HudiOracle#read(Path, String, Optional, boolean)}. */
  public Pending<List<GenericRecord>> read(Path table, String query, Optional<String> asOf, boolean useMetadata) {
    return add(HudiOracle.readArgs(table, query, asOf, useMetadata), HudiOracle::parseRows);
  }

  /** Like {@link HudiOracle#timeline(Path)}. */
  public Pending<List<Map<String, String>>> timeline(Path table) {
    return add(List.of("timeline", "--table", table.toString()), HudiOracle::parseTimeline);
  }

  /** Like {@link HudiOracle#archivedTimeline(Path)}. */
  public Pending<List<Map<String, String>>> archivedTimeline(Path table) {
    return add(List.of("timeline", "--table", table.toString(), "--archived"), HudiOracle::parseTimeline);
  }

  /** Like {@link HudiOracle#fsview(Path)}. */
  public Pending<List<OracleFileSlice>> fsview(Path table) {
    return add(List.of("fsview", "--table", table.toString()), HudiOracle::parseFsview);
  }

  /** The latest file slices as Hudi's file-system view lists them through the table's metadata table. */
  public Pending<List<OracleFileSlice>> fsviewThroughMetadata(Path table) {
    return add(List.of("fsview", "--table", table.toString(), "--use-metadata"), HudiOracle::parseFsview);
  }

  /** Like {@link HudiOracle#bloom(Path, List)}. */
  public Pending<OracleBloom> bloom(Path baseFile, List<String> keys) {
    Path keysFile = HudiOracle.keysFile(keys);
    temps.add(keysFile);
    return add(HudiOracle.bloomArgs(baseFile, keysFile), HudiOracle::parseBloom);
  }

  /**
   * Like {@link HudiOracle#create(Path, OracleTableSpec)}, with further options of the oracle's {@code create}
   * ({@code --table-version 8} and {@code --merge-mode} for the Hudi 1.x oracle); the result is the table path.
   */
  public Pending<String> create(Path table, OracleTableSpec spec, List<String> options) {
    Path schemaFile = HudiOracle.writeTemp(Path.of(System.getProperty("java.io.tmpdir")), "schema", ".avsc",
        spec.schema().toString());
    temps.add(schemaFile);
    List<String> args = new ArrayList<>(HudiOracle.createArgs(table, spec, schemaFile));
    args.addAll(options);
    return add(args, lines -> lines.get(lines.size() - 1).trim());
  }

  /**
   * Hudi 1.1.1's record-index lookup ({@code mdt-index} of the 1.x oracle, which has one HFile reader): each key of
   * {@code keys} found to "partition/fileId"; with {@code partition} the partitioned record index's lookup in it.
   */
  public Pending<Map<String, String>> metadataRecordIndex(Path table, List<String> keys, Optional<String> partition) {
    Path keysFile = HudiOracle.keysFile(keys);
    temps.add(keysFile);
    List<String> args = new ArrayList<>(List.of("mdt-index", "--table", table.toString(), "--keys-file",
        keysFile.toString()));
    partition.ifPresent(p -> {
      args.add("--partition");
      args.add(p);
    });
    return add(args, HudiOracle::parseRecordIndex);
  }

  /** Like {@link HudiOracle#metadataListing(Path)} (the Hudi 1.1.1 oracle). */
  public Pending<Map<String, Map<String, Long>>> metadataListing(Path table) {
    return add(List.of("mdt-files", "--table", table.toString()), HudiOracle::parseListing);
  }

  /**
   * Like {@link HudiOracle#metadataListing(Path, String)} (the Hudi 0.15.0 oracle). Hadoop's file-system cache is off
   * for the command, so that the reader choice, which travels in the configuration, cannot come from a file system an
   * earlier command of the batch cached with another configuration.
   */
  public Pending<Map<String, Map<String, Long>>> metadataListing(Path table, String reader) {
    return add(List.of("mdt-files", "--table", table.toString(), "--reader", reader, "--conf",
        "fs.file.impl.disable.cache=true"), HudiOracle::parseListing);
  }

  /** Like {@link HudiOracle#metadataRecordIndex}. */
  public Pending<Map<String, String>> metadataRecordIndex(Path table, List<String> keys, String reader) {
    Path keysFile = HudiOracle.keysFile(keys);
    temps.add(keysFile);
    return add(HudiOracle.recordIndexArgs(table, keysFile, reader), HudiOracle::parseRecordIndex);
  }

  /** Like {@link HudiOracle#write}: the last output line is the instant time. */
  public Pending<String> write(Path table, String op, Schema schema, List<GenericRecord> records,
      Map<String, String> conf) {
    return write(table, op, schema, records, conf, List.of());
  }

  /** Like {@link #write(Path, String, Schema, List, Map)} with further options (e.g. {@code --uncommitted}). */
  public Pending<String> write(Path table, String op, Schema schema, List<GenericRecord> records,
      Map<String, String> conf, List<String> options) {
    StringBuilder input = new StringBuilder(schema.toString()).append('\n');
    for (GenericRecord record : records) {
      input.append(HudiOracle.encode(schema, record)).append('\n');
    }
    Path inputFile = HudiOracle.writeTemp(Path.of(System.getProperty("java.io.tmpdir")), "input", ".jsonl",
        input.toString());
    temps.add(inputFile);
    List<String> args = new ArrayList<>(List.of("write", "--table", table.toString(), "--op", op,
        "--input", inputFile.toString()));
    conf.forEach((k, v) -> {
      args.add("--conf");
      args.add(k + "=" + v);
    });
    args.addAll(options);
    return add(args, lines -> lines.get(lines.size() - 1).trim());
  }

  /**
   * Hudi's compaction: {@code --schedule} (the result is the planned instant, or {@code none}) or {@code --run
   * INSTANT} (the result is {@code <instant> <files written>}).
   */
  public Pending<String> compact(Path table, Optional<String> run, Map<String, String> conf) {
    List<String> args = new ArrayList<>(List.of("compact", "--table", table.toString()));
    if (run.isPresent()) {
      args.add("--run");
      args.add(run.get());
    } else {
      args.add("--schedule");
    }
    conf.forEach((k, v) -> {
      args.add("--conf");
      args.add(k + "=" + v);
    });
    return add(args, lines -> lines.get(lines.size() - 1).trim());
  }

  /** Like {@link HudiOracle#schema(Path)}. */
  public Pending<Schema> schema(Path table) {
    return add(List.of("schema", "--table", table.toString()), HudiOracle::parseSchema);
  }

  /**
   * Runs the collected commands in one oracle JVM and fills their results.
   *
   * @throws AssertionError with the oracle's stderr if any command fails
   */
  public void run() {
    StringBuilder script = new StringBuilder();
    for (Step<?> step : steps) {
      try {
        script.append(JSON.writeValueAsString(step.args())).append('\n');
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Path scriptFile = HudiOracle.writeTemp(Path.of(System.getProperty("java.io.tmpdir")), "batch", ".txt",
        script.toString());
    List<String> lines;
    try {
      lines = oracle.run(List.of("batch", "--script", scriptFile.toString()));
    } finally {
      HudiOracle.deleteIfExists(scriptFile);
      temps.forEach(HudiOracle::deleteIfExists);
      temps.clear();
    }
    List<List<String>> sections = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith(MARKER)) {
        String[] parts = line.split(" ");
        if (!parts[2].equals("0")) {
          throw new AssertionError("batched oracle command " + steps.get(sections.size()).args() + " failed");
        }
        sections.add(new ArrayList<>());
      } else if (sections.isEmpty()) {
        throw new AssertionError("oracle batch output before the first section: " + line);
      } else {
        sections.get(sections.size() - 1).add(line);
      }
    }
    if (sections.size() != steps.size()) {
      throw new AssertionError("oracle batch returned " + sections.size() + " sections for " + steps.size()
          + " commands");
    }
    for (int i = 0; i < steps.size(); i++) {
      steps.get(i).complete(sections.get(i));
    }
  }
}
