package dev.sluice.oracle;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Writes the golden tables used by Sluice's reader tests with Hudi's Java client, plus the oracle's snapshot read
 * of each as {@code <name>.expected.jsonl} beside the table. Record contents are fixed; instant times and file
 * names (UUIDs) differ per run.
 *
 * <p>Usage: {@code GoldenTables OUTPUT_DIR [TABLE...]} (each table folder written is deleted and rewritten; without
 * names, every table).
 */
public final class GoldenTables {

  static final Schema ADDRESS = SchemaBuilder.record("address").namespace("golden").fields()
      .requiredString("city")
      .optionalInt("zip")
      .endRecord();

  static final Schema ROW = SchemaBuilder.record("row").namespace("golden").fields()
      .requiredString("id")
      .requiredLong("ts")
      .requiredString("part")
      .optionalString("name")
      .requiredDouble("price")
      .requiredInt("qty")
      .requiredBoolean("active")
      .name("address").type(ADDRESS).noDefault()
      .name("tags").type().array().items().stringType().noDefault()
      .endRecord();

  static final Schema KEYED = SchemaBuilder.record("keyed").namespace("golden").fields()
      .requiredString("id")
      .requiredInt("sub")
      .requiredLong("ts")
      .requiredString("region")
      .requiredString("day")
      .optionalString("note")
      .requiredDouble("amount")
      .endRecord();

  /** Small bloom filters for tables with many base files, so each table stays well under 2 MB. */
  private static final Map<String, String> SMALL_BLOOM = Map.of("hoodie.index.bloom.num_entries", "1000");
  private static final Map<String, String> NO_METADATA = Map.of("hoodie.metadata.enable", "false");

  private final Path out;

  private GoldenTables(Path out) {
    this.out = out;
  }

  /**
   * Regenerates every golden table under {@code args[0]}.
   *
   * @param args the output folder
   */
  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: GoldenTables OUTPUT_DIR [TABLE...]   (default: every table)");
      System.exit(2);
    }
    System.setProperty("jol.skipHotspotSAAttach", "true");
    System.setProperty("jol.skipDynamicAttach", "true");
    System.setProperty("jol.skipInstallAttach", "true");
    GoldenTables golden = new GoldenTables(Path.of(args[0]).toAbsolutePath());
    List<String> only = List.of(args).subList(1, args.length);
    Map<String, Writer> tables = new LinkedHashMap<>();
    tables.put("cow_partitioned", golden::cowPartitioned);
    tables.put("cow_nonpartitioned", () -> golden.cowNonPartitioned("cow_nonpartitioned", false));
    tables.put("cow_complex_key_hive", golden::cowComplexKeyHive);
    tables.put("cow_with_metadata_table", () -> golden.cowNonPartitioned("cow_with_metadata_table", true));
    tables.put("mor_partitioned", golden::morPartitioned);
    for (String name : only) {
      if (!tables.containsKey(name)) {
        System.err.println("unknown table " + name + "; tables: " + tables.keySet());
        System.exit(2);
      }
    }
    for (Map.Entry<String, Writer> e : tables.entrySet()) {
      if (only.isEmpty() || only.contains(e.getKey())) {
        e.getValue().write();
      }
    }
    System.exit(0);
  }

  /** Writes one golden table. */
  @FunctionalInterface
  private interface Writer {
    void write() throws IOException;
  }

  /**
   * A Merge-on-Read table with log files: small-file handling off so that updates go to logs (data blocks) and
   * inserts to new file groups; deletes as upserts of empty payloads (delete blocks), since the Java client's
   * {@code delete} on MoR rewrites base files and loses log updates.
   */
  private void morPartitioned() throws IOException {
    Path table = fresh("mor_partitioned");
    create(table, ROW, "id", "part", false, "MERGE_ON_READ");
    Map<String, String> conf = merge(merge(NO_METADATA, SMALL_BLOOM), Map.of("hoodie.parquet.small.file.limit", "0"));
    Map<String, String> deletes = merge(conf,
        Map.of("hoodie.datasource.write.payload.class", "org.apache.hudi.common.model.EmptyHoodieRecordPayload"));
    write(table, "insert", ROW, List.of(
        row("m01", 1, "north", "ann", 1.5, 1, true, "Oulu", 90100, "a"),
        row("m02", 1, "north", null, 2.5, 2, false, "Kemi", null),
        row("m03", 1, "north", "cai", 3.5, 3, true, "Lulea", 97100, "b", "c"),
        row("m04", 1, "south", "dov", 4.5, 4, false, "Faro", 8000),
        row("m05", 1, "south", "eli", 5.5, 5, true, "Cadiz", 11001, "d"),
        row("m06", 1, "south", null, 6.5, 6, true, "Malaga", null)), conf);
    write(table, "upsert", ROW, List.of(
        row("m01", 5, "north", "ann5", 15.0, 11, false, "Oulu", 90101, "upd"),
        row("m04", 5, "south", "dov5", 45.0, 14, true, "Faro", null),
        row("m05", 0, "south", "late", 0.5, 15, false, "Cadiz", 11002),
        row("m07", 5, "north", "new", 7.5, 7, true, "Bodo", 8001, "n")), conf);
    write(table, "upsert", ROW, List.of(
        row("m02", 6, "north", null, 0, 0, false, "", null),
        row("m06", 6, "south", null, 0, 0, false, "", null)), deletes);
    write(table, "upsert", ROW, List.of(
        row("m01", 3, "north", "ann3", 13.0, 21, true, "Oulu", 90103),
        row("m03", 7, "north", "cai7", 37.0, 23, false, "Lulea", 97107, "again"),
        row("m07", 8, "north", "new8", 78.0, 27, false, "Bodo", 8008)), conf);
    expected(table);
    String ro = oracle(List.of("read", "--table", table.toString(), "--query", "read_optimized"));
    Files.writeString(out.resolve(table.getFileName() + ".read_optimized.jsonl"), ro, StandardCharsets.UTF_8);
  }

  private void cowPartitioned() throws IOException {
    Path table = fresh("cow_partitioned");
    create(table, ROW, "id", "part", false);
    Map<String, String> conf = merge(NO_METADATA, SMALL_BLOOM);
    write(table, "insert", ROW, List.of(
        row("id01", 1, "americas", "ada", 10.5, 1, true, "Lima", 15001, "a"),
        row("id02", 1, "americas", null, 20.25, 2, false, "Quito", null),
        row("id03", 1, "asia", "chen", -3.5, 3, true, "Hanoi", 10000, "b", "c"),
        row("id04", 1, "asia", "devi", 0.0, 0, true, "Pune", 411001),
        row("id05", 1, "europe", "emil", 99.99, 5, false, "Oslo", 150, "x"),
        row("id06", 1, "europe", null, 1.0E-3, 6, true, "Riga", null, "y", "z", "w"),
        row("id07", 1, "europe", "gita", 7.75, 7, false, "Bern", 3000),
        row("id08", 1, "americas", "hugo", 8.0, 8, true, "Cali", 760001, "")), conf);
    write(table, "upsert", ROW, List.of(
        row("id02", 2, "americas", "bea", 21.25, 12, true, "Quito", 170150, "upd"),
        row("id03", 2, "asia", null, -4.5, 13, false, "Hanoi", null),
        row("id07", 2, "europe", "gita", 77.5, 17, true, "Basel", 4000, "upd", "twice"),
        row("id09", 2, "asia", "ines", 9.5, 9, true, "Seoul", 4500),
        row("id10", 2, "europe", "jan", 10.0, 10, false, "Gent", 9000, "new")), conf);
    write(table, "delete", ROW, List.of(
        row("id04", 3, "asia", null, 0, 0, false, "", null),
        row("id08", 3, "americas", null, 0, 0, false, "", null)), conf);
    expected(table);
  }

  private void cowNonPartitioned(String name, boolean metadataTable) throws IOException {
    Path table = fresh(name);
    create(table, ROW, "id", null, false);
    Map<String, String> conf = metadataTable ? Map.of() : NO_METADATA;
    write(table, "insert", ROW, List.of(
        row("n1", 1, "none", "one", 1.5, 1, true, "Turku", 20100, "t"),
        row("n2", 1, "none", null, 2.5, 2, false, "Tartu", null),
        row("n3", 1, "none", "three", 3.5, 3, true, "Tromso", 9008, "a", "b"),
        row("n4", 1, "none", "four", 4.5, 4, false, "Trier", 54290)), conf);
    write(table, "upsert", ROW, List.of(
        row("n2", 2, "none", "two", 22.5, 22, true, "Tartu", 50090, "upd"),
        row("n4", 2, "none", null, 44.5, 44, true, "Trier", null),
        row("n5", 2, "none", "five", 5.5, 5, false, "Toledo", 45001, "new")), conf);
    expected(table);
  }

  private void cowComplexKeyHive() throws IOException {
    Path table = fresh("cow_complex_key_hive");
    create(table, KEYED, "id,sub", "region,day", true);
    Map<String, String> conf = merge(NO_METADATA, SMALL_BLOOM);
    write(table, "insert", KEYED, List.of(
        keyed("a", 1, 1, "north", "2024-01-01", "first", 1.25),
        keyed("a", 2, 1, "north", "2024-01-01", null, 2.5),
        keyed("b", 1, 1, "north", "2024-01-02", "third", 3.75),
        keyed("a", 1, 1, "south", "2024-01-01", "same id, other partition", 4.0),
        keyed("c", 7, 1, "south", "2024-01-02", "fifth", -5.5)), conf);
    write(table, "upsert", KEYED, List.of(
        keyed("a", 2, 2, "north", "2024-01-01", "updated", 20.5),
        keyed("c", 7, 2, "south", "2024-01-02", null, -55.5),
        keyed("d", 1, 2, "south", "2024-01-03", "new partition", 6.0)), conf);
    expected(table);
  }

  private Path fresh(String name) throws IOException {
    Path table = out.resolve(name);
    if (Files.exists(table)) {
      try (Stream<Path> paths = Files.walk(table)) {
        for (Path p : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(out);
    return table;
  }

  private void create(Path table, Schema schema, String recordKey, String partitions, boolean hiveStyle)
      throws IOException {
    create(table, schema, recordKey, partitions, hiveStyle, "COPY_ON_WRITE");
  }

  private void create(Path table, Schema schema, String recordKey, String partitions, boolean hiveStyle, String type)
      throws IOException {
    Path schemaFile = Files.createTempFile("golden-schema", ".avsc");
    try {
      Files.writeString(schemaFile, schema.toString(), StandardCharsets.UTF_8);
      List<String> args = new ArrayList<>(List.of("create", "--table", table.toString(), "--type", type,
          "--name", table.getFileName().toString(), "--record-key", recordKey, "--precombine", "ts",
          "--schema", schemaFile.toString()));
      if (partitions != null) {
        args.add("--partition-fields");
        args.add(partitions);
      }
      if (hiveStyle) {
        args.add("--hive-style");
      }
      oracle(args);
    } finally {
      Files.deleteIfExists(schemaFile);
    }
  }

  private void write(Path table, String op, Schema schema, List<GenericRecord> records, Map<String, String> conf)
      throws IOException {
    StringBuilder input = new StringBuilder(schema.toString()).append('\n');
    for (GenericRecord record : records) {
      input.append(AvroJson.encode(schema, record)).append('\n');
    }
    Path inputFile = Files.createTempFile("golden-input", ".jsonl");
    try {
      Files.writeString(inputFile, input.toString(), StandardCharsets.UTF_8);
      List<String> args = new ArrayList<>(List.of("write", "--table", table.toString(), "--op", op,
          "--input", inputFile.toString()));
      conf.forEach((k, v) -> {
        args.add("--conf");
        args.add(k + "=" + v);
      });
      System.err.println(table.getFileName() + " " + op + " -> " + oracle(args).trim());
    } finally {
      Files.deleteIfExists(inputFile);
    }
  }

  private void expected(Path table) throws IOException {
    String rows = oracle(List.of("read", "--table", table.toString()));
    Files.writeString(out.resolve(table.getFileName() + ".expected.jsonl"), rows, StandardCharsets.UTF_8);
  }

  private static String oracle(List<String> args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream stdout = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int status = Oracle.run(args, stdout, System.err);
    if (status != 0) {
      throw new UncheckedIOException(new IOException("oracle " + args + " failed with status " + status));
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static Map<String, String> merge(Map<String, String> a, Map<String, String> b) {
    Map<String, String> merged = new LinkedHashMap<>(a);
    merged.putAll(b);
    return merged;
  }

  private static GenericRecord row(String id, long ts, String part, String name, double price, int qty,
      boolean active, String city, Integer zip, String... tags) {
    GenericRecord address = new GenericData.Record(ADDRESS);
    address.put("city", city);
    address.put("zip", zip);
    GenericRecord record = new GenericData.Record(ROW);
    record.put("id", id);
    record.put("ts", ts);
    record.put("part", part);
    record.put("name", name);
    record.put("price", price);
    record.put("qty", qty);
    record.put("active", active);
    record.put("address", address);
    record.put("tags", List.of(tags));
    return record;
  }

  private static GenericRecord keyed(String id, int sub, long ts, String region, String day, String note,
      double amount) {
    GenericRecord record = new GenericData.Record(KEYED);
    record.put("id", id);
    record.put("sub", sub);
    record.put("ts", ts);
    record.put("region", region);
    record.put("day", day);
    record.put("note", note);
    record.put("amount", amount);
    return record;
  }
}
