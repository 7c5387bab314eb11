package dev.sluice.interop;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;

/**
 * Test harness around Apache Hudi 0.15.0 ({@link #locate}) and 1.1.1 ({@link #locateHudi1}): runs
 * {@code dev.sluice.oracle.Oracle} (module hudi-oracle or hudi1-oracle) in a child JVM with that Hudi's own classpath,
 * so Hudi's Hadoop/Parquet/Avro versions never meet Sluice's.
 *
 * <p>Every method fails with an {@link AssertionError} carrying the oracle's stderr when the oracle fails.
 */
public final class HudiOracle {

  /** System property naming hudi-oracle's build directory; defaults to {@code ../hudi-oracle/target}. */
  public static final String ORACLE_DIR_PROPERTY = "sluice.oracle.dir";

  /** System property: when {@code true}, each call's duration is printed to stderr. */
  public static final String VERBOSE_PROPERTY = "sluice.oracle.verbose";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(3);

  private final OracleJvm jvm;
  private final Duration timeout;

  private HudiOracle(OracleJvm jvm, Duration timeout) {
    this.jvm = jvm;
    this.timeout = timeout;
  }

  /** System property naming hudi1-oracle's build directory; defaults to {@code ../hudi1-oracle/target}. */
  public static final String ORACLE1_DIR_PROPERTY = "sluice.oracle1.dir";

  /**
   * Finds the built Hudi 0.15.0 oracle (its {@code classes} folder and {@code oracle.classpath} file).
   *
   * @throws AssertionError if hudi-oracle has not been built
   */
  public static HudiOracle locate() {
    return locate(System.getProperty(ORACLE_DIR_PROPERTY, "../hudi-oracle/target"), "hudi-oracle");
  }

  /**
   * Finds the built Hudi 1.1.1 oracle (module hudi1-oracle): the same commands and output for those it has, run by
   * Hudi 1.x's jars.
   *
   * @throws AssertionError if hudi1-oracle has not been built
   */
  public static HudiOracle locateHudi1() {
    return locate(System.getProperty(ORACLE1_DIR_PROPERTY, "../hudi1-oracle/target"), "hudi1-oracle");
  }

  private static HudiOracle locate(String location, String module) {
    Path dir = Path.of(location).toAbsolutePath().normalize();
    Path classes = dir.resolve("classes");
    Path classpathFile = dir.resolve("oracle.classpath");
    if (!Files.isRegularFile(classpathFile) || !Files.isRegularFile(classes.resolve("dev/sluice/oracle/Oracle.class"))) {
      throw new AssertionError("The Hudi oracle is not built: expected " + classpathFile + " and " + classes
          + ". Build it first, e.g. `mvn -B -q -pl " + module + ",sluice-interop -am test` from the repository root "
          + "(or `mvn -pl " + module + " -am compile`).");
    }
    String dependencies;
    try {
      dependencies = Files.readString(classpathFile, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + classpathFile, e);
    }
    // The same JDK as the running tests.
    Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
    return new HudiOracle(OracleJvm.prepare(javaBin, dir, classes, dependencies), DEFAULT_TIMEOUT);
  }

  /** The same oracle with another per-call timeout. */
  public HudiOracle withTimeout(Duration newTimeout) {
    return new HudiOracle(jvm, newTimeout);
  }

  /**
   * The table's partitions (relative paths) and each one's files (name to size) as Hudi 0.15's
   * {@code HoodieBackedTableMetadata} lists them from the metadata table, with HFile reader {@code reader}:
   * {@code "hbase"} (Hudi 0.15's default) or {@code "native"}. Fails if the metadata table cannot be read.
   */
  public Map<String, Map<String, Long>> metadataListing(Path table, String reader) {
    return parseListing(run(List.of("mdt-files", "--table", table.toString(), "--reader", reader)));
  }

  /**
   * As {@link #metadataListing(Path, String)} for the Hudi 1.1.1 oracle ({@link #locateHudi1}), whose only HFile
   * reader is its own.
   */
  public Map<String, Map<String, Long>> metadataListing(Path table) {
    return parseListing(run(List.of("mdt-files", "--table", table.toString())));
  }

  /**
   * What Hudi 0.15's {@code HoodieBackedTableMetadata.readRecordIndex} returns for {@code keys} with HFile reader
   * {@code reader} ({@code "hbase"} or {@code "native"}): each key found to "partition/fileId". Fails if the metadata
   * table or its record index cannot be read.
   */
  public Map<String, String> metadataRecordIndex(Path table, List<String> keys, String reader) {
    Path keysFile = keysFile(keys);
    try {
      return parseRecordIndex(run(recordIndexArgs(table, keysFile, reader)));
    } finally {
      deleteIfExists(keysFile);
    }
  }

  static List<String> recordIndexArgs(Path table, Path keysFile, String reader) {
    return List.of("mdt-index", "--table", table.toString(), "--keys-file", keysFile.toString(), "--reader", reader);
  }

  static Map<String, String> parseRecordIndex(List<String> lines) {
    Map<String, String> out = new java.util.TreeMap<>();
    for (JsonNode node : jsonLines(lines)) {
      node.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().get("partition").asText() + "/"
          + e.getValue().get("fileId").asText()));
    }
    return out;
  }

  static Map<String, Map<String, Long>> parseListing(List<String> lines) {
    Map<String, Map<String, Long>> out = new java.util.TreeMap<>();
    for (JsonNode node : jsonLines(lines)) {
      Map<String, Long> files = new java.util.TreeMap<>();
      node.get("files").fields().forEachRemaining(e -> files.put(e.getKey(), e.getValue().asLong()));
      out.put(node.get("partition").asText(), files);
    }
    return out;
  }

  /** Initialises an empty Hudi table at {@code table}. */
  public void create(Path table, OracleTableSpec spec, Path workDir) {
    Path schemaFile = writeTemp(workDir, "schema", ".avsc", spec.schema().toString());
    try {
      run(createArgs(table, spec, schemaFile));
    } finally {
      deleteIfExists(schemaFile);
    }
  }

  /** The {@code create} command line for {@code spec}, its schema in {@code schemaFile}. */
  static List<String> createArgs(Path table, OracleTableSpec spec, Path schemaFile) {
    List<String> args = new ArrayList<>(List.of("create", "--table", table.toString(), "--type", spec.tableType(),
        "--name", spec.name(), "--record-key", String.join(",", spec.recordKeyFields()),
        "--precombine", spec.precombineField(), "--schema", schemaFile.toString()));
    if (!spec.partitionFields().isEmpty()) {
      args.add("--partition-fields");
      args.add(String.join(",", spec.partitionFields()));
    }
    if (spec.hiveStyle()) {
      args.add("--hive-style");
    }
    spec.payloadClass().ifPresent(p -> {
      args.add("--payload");
      args.add(p);
    });
    return args;
  }

  /** Initialises an empty Hudi table, using the table's parent folder for the schema file. */
  public void create(Path table, OracleTableSpec spec) {
    create(table, spec, scratchDir(table));
  }

  /**
   * Writes one commit with Hudi's Java client ({@code op}: insert, upsert, delete, bulk_insert; BLOOM index,
   * metadata table on unless {@code conf} turns it off, snappy). For delete only the records' keys count.
   *
   * @return the instant time of the commit
   */
  public String write(Path table, String op, Schema schema, List<GenericRecord> records, Map<String, String> conf) {
    StringBuilder input = new StringBuilder(schema.toString()).append('\n');
    for (GenericRecord record : records) {
      input.append(encode(schema, record)).append('\n');
    }
    Path inputFile = writeTemp(scratchDir(table), "input", ".jsonl", input.toString());
    try {
      List<String> args = new ArrayList<>(List.of("write", "--table", table.toString(), "--op", op,
          "--input", inputFile.toString()));
      conf.forEach((k, v) -> {
        args.add("--conf");
        args.add(k + "=" + v);
      });
      List<String> lines = run(args);
      if (lines.isEmpty()) {
        throw new AssertionError("oracle write printed no instant time");
      }
      return lines.get(lines.size() - 1).trim();
    } finally {
      deleteIfExists(inputFile);
    }
  }

  /**
   * Reads the table as Hudi does ({@code query}: snapshot or read_optimized), optionally as of an instant;
   * rows sorted by record key then partition, each carrying the table schema with meta fields.
   */
  public List<GenericRecord> read(Path table, String query, Optional<String> asOf) {
    return read(table, query, asOf, false);
  }

  /** Like {@link #read(Path, String, Optional)}, listing files through the metadata table if asked. */
  public List<GenericRecord> read(Path table, String query, Optional<String> asOf, boolean useMetadata) {
    return parseRows(run(readArgs(table, query, asOf, useMetadata)));
  }

  static List<String> readArgs(Path table, String query, Optional<String> asOf, boolean useMetadata) {
    List<String> args = new ArrayList<>(List.of("read", "--table", table.toString(), "--query", query));
    asOf.ifPresent(instant -> {
      args.add("--as-of");
      args.add(instant);
    });
    if (useMetadata) {
      args.add("--use-metadata");
    }
    return args;
  }

  /** Several read-only commands in one oracle JVM; see {@link OracleBatch}. */
  public OracleBatch batch() {
    return new OracleBatch(this);
  }

  /** Parses the oracle's read output: a {@code {"schema": ...}} line, then one Avro-JSON record per line. */
  static List<GenericRecord> parseRows(List<String> lines) {
    if (lines.isEmpty()) {
      throw new AssertionError("oracle read printed nothing");
    }
    Schema schema;
    try {
      JsonNode head = JSON.readTree(lines.get(0));
      schema = new Schema.Parser().parse(head.get("schema").toString());
    } catch (IOException | RuntimeException e) {
      throw new AssertionError("bad schema line from oracle: " + lines.get(0), e);
    }
    GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(schema);
    List<GenericRecord> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      if (line.isBlank()) {
        continue;
      }
      try {
        rows.add(reader.read(null, DecoderFactory.get().jsonDecoder(schema, line)));
      } catch (IOException | RuntimeException e) {
        throw new AssertionError("bad row from oracle: " + line, e);
      }
    }
    return rows;
  }

  /** The active timeline, one map per instant with keys {@code time}, {@code action}, {@code state}. */
  public List<Map<String, String>> timeline(Path table) {
    return parseTimeline(run(List.of("timeline", "--table", table.toString())));
  }

  /**
   * The archived timeline as Hudi loads it, one map per archived instant state with keys {@code time}, {@code action},
   * {@code state}, and {@code recordsWritten} for completed commits (from their archived commit metadata).
   */
  public List<Map<String, String>> archivedTimeline(Path table) {
    return parseTimeline(run(List.of("timeline", "--table", table.toString(), "--archived")));
  }

  static List<Map<String, String>> parseTimeline(List<String> lines) {
    List<Map<String, String>> out = new ArrayList<>();
    for (JsonNode node : jsonLines(lines)) {
      Map<String, String> instant = new LinkedHashMap<>();
      Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        instant.put(field.getKey(), field.getValue().asText());
      }
      out.add(instant);
    }
    return out;
  }

  /** The latest file slices of every partition, sorted by partition and file id. */
  public List<OracleFileSlice> fsview(Path table) {
    return parseFsview(run(List.of("fsview", "--table", table.toString())));
  }

  static List<OracleFileSlice> parseFsview(List<String> lines) {
    List<OracleFileSlice> out = new ArrayList<>();
    for (JsonNode node : jsonLines(lines)) {
      List<String> logs = new ArrayList<>();
      node.get("logFiles").forEach(log -> logs.add(log.asText()));
      JsonNode base = node.get("baseFile");
      out.add(new OracleFileSlice(node.get("partition").asText(), node.get("fileId").asText(),
          node.get("baseInstant").asText(),
          base == null || base.isNull() ? Optional.empty() : Optional.of(base.asText()), logs));
    }
    return out;
  }

  /** Reads a base file's bloom filter and key range with Hudi's own footer code. */
  public OracleBloom bloom(Path baseFile, List<String> keys) {
    Path keysFile = keysFile(keys);
    try {
      return parseBloom(run(bloomArgs(baseFile, keysFile)));
    } finally {
      deleteIfExists(keysFile);
    }
  }

  /** One key per line: complex record keys hold commas. */
  static Path keysFile(List<String> keys) {
    return writeTemp(Path.of(System.getProperty("java.io.tmpdir")), "keys", ".txt", String.join("\n", keys) + "\n");
  }

  static List<String> bloomArgs(Path baseFile, Path keysFile) {
    return List.of("bloom", "--file", baseFile.toString(), "--keys-file", keysFile.toString());
  }

  static OracleBloom parseBloom(List<String> lines) {
    List<JsonNode> nodes = jsonLines(lines);
    if (nodes.size() != 1) {
      throw new AssertionError("oracle bloom printed " + nodes.size() + " lines");
    }
    JsonNode node = nodes.get(0);
    Map<String, Boolean> contains = new LinkedHashMap<>();
    node.get("contains").fields().forEachRemaining(e -> contains.put(e.getKey(), e.getValue().asBoolean()));
    return new OracleBloom(text(node, "type"), text(node, "min"), text(node, "max"), contains);
  }

  /** The table schema (with meta fields) as Hudi's TableSchemaResolver resolves it. */
  public Schema schema(Path table) {
    return parseSchema(run(List.of("schema", "--table", table.toString())));
  }

  static Schema parseSchema(List<String> lines) {
    return new Schema.Parser().parse(String.join("\n", lines));
  }

  /**
   * Runs the oracle with raw arguments and returns its stdout lines.
   *
   * @throws AssertionError with the oracle's stderr if it exits non-zero or times out
   */
  public List<String> run(List<String> args) {
    List<String> command = jvm.command();
    command.addAll(args);
    Path out = null;
    Path err = null;
    try {
      out = Files.createTempFile("oracle-out", ".txt");
      err = Files.createTempFile("oracle-err", ".txt");
      long started = System.nanoTime();
      Process process = new ProcessBuilder(command)
          .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
          .redirectOutput(out.toFile())
          .redirectError(err.toFile())
          .start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        throw new AssertionError("oracle " + args + " timed out after " + timeout + "\nstderr:\n" + tail(err));
      }
      if (Boolean.getBoolean(VERBOSE_PROPERTY)) {
        System.err.printf("oracle %s: %d ms%n", args.get(0), (System.nanoTime() - started) / 1_000_000);
      }
      if (process.exitValue() != 0) {
        throw new AssertionError("oracle " + args + " exited with " + process.exitValue() + "\nstderr:\n" + tail(err));
      }
      return Files.readAllLines(out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run the oracle " + args, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while running the oracle " + args, e);
    } finally {
      deleteIfExists(out);
      deleteIfExists(err);
    }
  }

  private static File nullDevice() {
    return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }

  private static String tail(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    int max = 20_000;
    return text.length() <= max ? text : "..." + text.substring(text.length() - max);
  }

  private static Optional<String> text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? Optional.empty() : Optional.of(value.asText());
  }

  private static List<JsonNode> jsonLines(List<String> lines) {
    List<JsonNode> out = new ArrayList<>();
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      try {
        out.add(JSON.readTree(line));
      } catch (IOException e) {
        throw new AssertionError("bad JSON line from oracle: " + line, e);
      }
    }
    return out;
  }

  /** One record in Avro's JSON encoding, on one line (Sluice's Avro; Hudi's 1.11 decoder reads it). */
  static String encode(Schema schema, GenericRecord record) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      JsonEncoder encoder = EncoderFactory.get().jsonEncoder(schema, bytes);
      new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
      encoder.flush();
      return bytes.toString(StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode record " + record, e);
    }
  }

  private static Path scratchDir(Path table) {
    Path parent = table.toAbsolutePath().getParent();
    return parent == null ? Path.of(System.getProperty("java.io.tmpdir")) : parent;
  }

  static Path writeTemp(Path dir, String prefix, String suffix, String content) {
    try {
      Files.createDirectories(dir);
      Path file = Files.createTempFile(dir, "oracle-" + prefix, suffix);
      Files.writeString(file, content, StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write oracle input in " + dir, e);
    }
  }

  static void deleteIfExists(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + file, e);
    }
  }
}
