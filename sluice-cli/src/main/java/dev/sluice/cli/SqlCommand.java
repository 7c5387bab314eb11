package dev.sluice.cli;

import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.sql.FileFormat;
import dev.sluice.sql.OutputFormat;
import dev.sluice.sql.SluiceSql;
import dev.sluice.sql.SqlOptions;
import dev.sluice.sql.SqlShell;
import dev.sluice.sql.SqlTable;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * {@code sluice sql}: SQL over tables (docs/sql.md) with DuckDB in-process, fed by Sluice's scans. Without a query it
 * reads statements from standard input (or {@code --file}), each ended by a {@code ;} at the end of a line.
 */
@Command(name = "sql", description = "Run SQL over tables (DuckDB in-process, fed by Sluice's scans): views ALIAS "
    + "(snapshot), ALIAS_ro and ALIAS_rt (Merge-on-Read), ALIAS_incr (with --from). Without QUERY: a prompt reading "
    + "statements ended by ';' from standard input (docs/sql.md).")
final class SqlCommand implements Callable<Integer> {
  /** Standard input, replaced by tests. */
  static InputStream stdin = System.in;

  @Parameters(index = "0", arity = "0..1", paramLabel = "QUERY", description = "The SQL statement; none: the prompt.")
  String query;

  @Option(names = "--table", required = true, paramLabel = "ALIAS=PATH[@INSTANT]", description = "A table and its "
      + "name in SQL (repeatable); @INSTANT: this table as of that instant.")
  List<String> tables = new ArrayList<>();

  @Option(names = "--format", defaultValue = "table", description = "table (default), csv or jsonl; with --output: "
      + "parquet or arrow (default: the file's extension).")
  String format;

  @Option(names = "--output", paramLabel = "FILE", description = "Write the rows to FILE (.parquet or .arrow) instead.")
  Path output;

  @Option(names = "--file", paramLabel = "FILE", description = "Read the statements from FILE instead of standard "
      + "input.")
  Path file;

  @Option(names = "--as-of", paramLabel = "INSTANT", description = "Time travel: the snapshot and read-optimized "
      + "views as of this instant (tables without their own @INSTANT).")
  String asOf;

  @Option(names = "--from", paramLabel = "INSTANT", description = "Adds the incremental views ALIAS_incr: rows "
      + "written after this instant.")
  String from;

  @Option(names = "--to", paramLabel = "INSTANT", description = "Incremental: up to and including this instant.")
  String to;

  @Option(names = "--meta", description = "The views also have the _hoodie_* meta columns.")
  boolean meta;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (to != null && from == null) {
      throw SluiceException.badInput("--to " + to, null, "no --from instant given", "--from INSTANT with --to");
    }
    List<Table> opened = new ArrayList<>();
    try {
      List<SqlTable> sqlTables = new ArrayList<>();
      for (String t : tables) {
        SqlTable.Argument a = SqlTable.Argument.parse(t);
        Table table = Tables.open(a.location(), common.config());
        opened.add(table);
        sqlTables.add(new SqlTable(a.alias(), table, a.asOf()));
      }
      SqlOptions options = new SqlOptions(Optional.ofNullable(asOf), Optional.ofNullable(from), Optional.ofNullable(to),
          meta, SqlOptions.DEFAULT_BATCH_SIZE);
      try (SluiceSql sql = SluiceSql.open(sqlTables, options)) {
        return Session.run(this, sql);
      }
    } finally {
      opened.forEach(Table::close);
    }
  }

  /**
   * The statements' run, apart from the command class: picocli reflects on the command's methods for every command
   * line, and a method taking {@link SluiceSql} would load the SQL module's classes for every sluice command.
   */
  private static final class Session {
    private Session() {
    }

    static int run(SqlCommand c, SluiceSql sql) throws IOException {
      PrintWriter out = c.spec.commandLine().getOut();
      if (c.output != null) {
        if (c.query == null) {
          throw SluiceException.badInput("--output " + c.output, null, "no QUERY given",
              "a query whose rows go to the file");
        }
        FileFormat f = c.format.equals("table") ? FileFormat.ofFileName(c.output.getFileName().toString())
            .orElseThrow(() -> SluiceException.badInput("--output " + c.output, null, "no file format",
                "a file name ending in .parquet or .arrow, or --format parquet|arrow")) : FileFormat.parse(c.format);
        sql.write(c.query, c.output, f);
        return 0;
      }
      OutputFormat f = OutputFormat.parse(c.format);
      if (c.query != null) {
        sql.print(c.query, f, out);
        return 0;
      }
      BufferedReader in = new BufferedReader(new InputStreamReader(c.file != null ? open(c.file) : stdin,
          StandardCharsets.UTF_8));
      // the prompt only for a person at a terminal: piped statements print their rows alone
      int failed = new SqlShell(sql, f).run(in, out, c.spec.commandLine().getErr(),
          c.file == null && System.console() != null);
      return failed == 0 ? 0 : 3;
    }
  }

  private static InputStream open(Path p) {
    try {
      return Files.newInputStream(p);
    } catch (IOException e) {
      throw SluiceException.badInput("--file " + p, "cannot read it: " + e.getMessage(), e);
    }
  }
}
