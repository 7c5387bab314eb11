package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.api.SluiceException;
import dev.sluice.api.MergeMode;
import dev.sluice.tools.records.SchemaDdl;
import dev.sluice.api.TableType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code sluice create}: a new, empty table. */
@Command(name = "create", description = "Create a table (Copy-on-Write or Merge-on-Read) in Hudi's format.")
final class CreateCommand implements Callable<Integer> {
  /** Option prefixes stored in hoodie.properties when given to create with --conf. */
  private static final List<String> TABLE_PROPERTY_PREFIXES = List.of("hoodie.table.", "hoodie.database.name",
      "hoodie.datasource.write.", "hoodie.populate.meta.fields", "hoodie.partition.metafile.use.base.format",
      "hoodie.archivelog.folder", "hoodie.compaction.payload.class", "hoodie.bootstrap.", "hoodie.timeline.",
      "sluice.table.");

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--type", defaultValue = "cow", description = "cow (Copy-on-Write, default) or mor (Merge-on-Read).")
  String type;

  @Option(names = "--record-key", required = true, split = ",", paramLabel = "F[,F]",
      description = "Record key field(s); several make a complex key.")
  List<String> recordKey;

  @Option(names = "--precombine", paramLabel = "F", description = "Ordering field: the larger value wins between versions of a key.")
  String precombine;

  @Option(names = "--partition-path", split = ",", paramLabel = "F[,F]",
      description = "Partition field(s); none for a non-partitioned table.")
  List<String> partitionPath = new ArrayList<>();

  @Option(names = "--hive-style", description = "Partition folders named field=value.")
  boolean hiveStyle;

  @Option(names = "--name", description = "Table name (default: the folder name).")
  String name;

  @Option(names = "--merge-mode", defaultValue = "event-time",
      description = "event-time (the larger precombine value wins, also against stored rows; default) or "
          + "commit-time (the latest write wins).")
  String mergeMode;

  @Option(names = "--table-version", paramLabel = "N", defaultValue = "" + TableSpec.DEFAULT_TABLE_VERSION,
      description = "The Hudi table version: 9 (default; read by Hudi 1.1 and later), 8 (Hudi 1.0 and later) or 6 "
          + "(Hudi 0.14 and later: give 6 when Hudi 0.14/0.15 engines must read or write the table). An existing "
          + "table is always written at its own version.")
  int tableVersion;

  @Option(names = "--concurrency-mode", paramLabel = "MODE",
      description = "Record the concurrency mode in the table (sluice.table.concurrency.mode) so every writer follows "
          + "it: single (SINGLE_WRITER) or occ (OPTIMISTIC_CONCURRENCY_CONTROL). Default: not recorded, each "
          + "writer's own hoodie.write.concurrency.mode.")
  String concurrencyMode;

  @ArgGroup(exclusive = true, multiplicity = "1")
  SchemaSource schema;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  static final class SchemaSource {
    @Option(names = "--schema", paramLabel = "FILE.avsc", description = "Avro schema file.")
    Path file;

    @Option(names = "--columns", paramLabel = "\"id string, ts long, ...\"", description = "Columns as name type pairs.")
    String columns;
  }

  @Override
  public Integer call() {
    Config config = common.config();
    String tableName = name != null ? name : defaultName(table);
    Schema s = schema.file != null ? readSchema(schema.file) : SchemaDdl.parse(schema.columns, avroName(tableName));
    List<String> required = new ArrayList<>(recordKey);
    if (precombine != null) {
      required.add(precombine);
    }
    if (schema.columns != null) {
      s = SchemaDdl.requireFields(s, required);
    }
    TableSpec.Builder b = TableSpec.builder(tableName)
        .type(parseType(type))
        .recordKey(recordKey.toArray(String[]::new))
        .partitionBy(partitionPath.toArray(String[]::new))
        .hiveStyle(hiveStyle)
        .schema(s)
        .mergeMode(parseMergeMode(mergeMode))
        .tableVersion(tableVersion);
    if (precombine != null) {
      b.precombine(precombine);
    }
    for (Map.Entry<String, String> e : config.asMap().entrySet()) {
      if (TABLE_PROPERTY_PREFIXES.stream().anyMatch(e.getKey()::startsWith)) {
        b.property(e.getKey(), e.getValue());
      }
    }
    if (concurrencyMode != null) {
      b.property(ConfigKeys.TABLE_CONCURRENCY_MODE.name(), parseConcurrencyMode(concurrencyMode));
    }
    Table t = Tables.create(table, b.build(), config);
    spec.commandLine().getOut().println("Created " + t.type() + " table '" + tableName + "' (table version "
        + t.tableVersion() + ") at " + t.location());
    return 0;
  }

  static TableType parseType(String t) {
    return switch (t.toLowerCase(Locale.ROOT)) {
      case "cow", "copy_on_write", "copy-on-write" -> TableType.COPY_ON_WRITE;
      case "mor", "merge_on_read", "merge-on-read" -> TableType.MERGE_ON_READ;
      default -> throw SluiceException.badRequest("--type " + t, "unknown table type", "Use cow or mor.");
    };
  }

  static String parseConcurrencyMode(String m) {
    return switch (m.toLowerCase(Locale.ROOT).replace('-', '_')) {
      case "single", "single_writer" -> "SINGLE_WRITER";
      case "occ", "optimistic", "optimistic_concurrency_control" -> "OPTIMISTIC_CONCURRENCY_CONTROL";
      default -> throw SluiceException.badRequest("--concurrency-mode " + m, "unknown concurrency mode",
          "Use single or occ.");
    };
  }

  static MergeMode parseMergeMode(String m) {
    return switch (m.toLowerCase(Locale.ROOT)) {
      case "event-time", "event_time", "event-time-ordering" -> MergeMode.EVENT_TIME_ORDERING;
      case "commit-time", "commit_time", "commit-time-ordering" -> MergeMode.COMMIT_TIME_ORDERING;
      default -> throw SluiceException.badRequest("--merge-mode " + m, "unknown merge mode", "Use event-time or commit-time.");
    };
  }

  private static Schema readSchema(Path file) {
    try {
      return new Schema.Parser().parse(Files.readString(file));
    } catch (IOException e) {
      throw SluiceException.badRequest("--schema " + file, "cannot read the file: " + e.getMessage(), "Give a readable .avsc file.");
    } catch (SchemaParseException e) {
      throw SluiceException.badRequest("--schema " + file, "it is not a valid Avro schema: " + e.getMessage(), "Fix the schema.");
    }
  }

  private static String defaultName(String location) {
    String l = location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
    return l.substring(l.lastIndexOf('/') + 1);
  }

  private static String avroName(String tableName) {
    String n = tableName.replaceAll("[^A-Za-z0-9_]", "_");
    return Character.isDigit(n.charAt(0)) ? "_" + n : n + "_record";
  }
}
