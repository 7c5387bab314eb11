package dev.sluice.cli;

import dev.sluice.api.QueryType;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.sql.FileFormat;
import dev.sluice.sql.SluiceSql;
import dev.sluice.sql.SqlOptions;
import dev.sluice.sql.SqlTable;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice export}: a table's rows as one plain Parquet or Arrow IPC file that other tools read, through the same
 * DuckDB feed as {@code sluice sql} (docs/sql.md).
 */
@Command(name = "export", description = "Write a table's rows (snapshot by default) as a plain Parquet or Arrow IPC "
    + "file into DIR, for tools that read plain files (docs/sql.md).")
final class ExportCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Parameters(index = "1", paramLabel = "DIR", description = "The folder to write into (made if missing); the file "
      + "is named after the table's folder.")
  Path dir;

  @Option(names = "--format", required = true, description = "parquet or arrow.")
  String format;

  @Option(names = "--type", defaultValue = "snapshot", description = "snapshot, read-optimized or incremental.")
  String type;

  @Option(names = "--as-of", paramLabel = "INSTANT", description = "Time travel: the snapshot as of this instant.")
  String asOf;

  @Option(names = "--from", paramLabel = "INSTANT", description = "Incremental: rows written after this instant.")
  String from;

  @Option(names = "--to", paramLabel = "INSTANT", description = "Incremental: up to and including this instant.")
  String to;

  @Option(names = "--meta", description = "Also the _hoodie_* meta columns.")
  boolean meta;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    FileFormat f = FileFormat.parse(format);
    QueryType queryType = QueryCommand.parseType(type);
    if (queryType == QueryType.INCREMENTAL && from == null) {
      throw SluiceException.badInput("--type incremental", null, "no --from instant given", "--from INSTANT");
    }
    if (queryType != QueryType.INCREMENTAL && (from != null || to != null)) {
      throw SluiceException.badRequest("--from/--to", "they give the range of an incremental export",
          "Add --type incremental, or use --as-of for a snapshot as of an instant.");
    }
    String alias = alias(table);
    try (Table t = Tables.open(table, common.config());
        SluiceSql sql = SluiceSql.open(List.of(new SqlTable(alias, t)), new SqlOptions(Optional.ofNullable(asOf),
            Optional.ofNullable(from), Optional.ofNullable(to), meta, SqlOptions.DEFAULT_BATCH_SIZE))) {
      String view = switch (queryType) {
        case READ_OPTIMIZED -> t.type() == TableType.MERGE_ON_READ ? alias + "_ro" : alias;
        case INCREMENTAL -> alias + "_incr";
        default -> alias;
      };
      SluiceSql.Exported done = sql.export(view, dir, f);
      spec.commandLine().getOut().println("exported " + done.rows() + " rows to " + done.file());
      spec.commandLine().getOut().flush();
      return 0;
    }
  }

  /** The table folder's name as a SQL name: the exported file's name. */
  static String alias(String location) {
    String s = location.replaceAll("/+$", "");
    String name = s.substring(s.lastIndexOf('/') + 1).replaceAll("[^A-Za-z0-9_]", "_");
    return name.isEmpty() || Character.isDigit(name.charAt(0)) ? "t_" + name : name;
  }
}
