package dev.sluice.sql;

import dev.sluice.api.Expression;
import dev.sluice.api.Expressions;
import dev.sluice.api.QueryType;
import dev.sluice.api.Scan;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.avro.Schema;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;

/**
 * SQL over Sluice tables: an in-process DuckDB whose views read the tables through Sluice's own scans, handed over as
 * Arrow streams. Each table given as {@code alias} has the views {@code alias} (the snapshot: Merge-on-Read merged),
 * and for a Merge-on-Read table {@code alias_ro} (read-optimized: base files only) and {@code alias_rt} (the snapshot,
 * Hudi's name for it); with {@link SqlOptions#from} also {@code alias_incr} (the incremental range).
 *
 * <p>Each statement plans its scans from DuckDB's parse tree ({@link QueryPlan}): a view the statement names is
 * scanned once, reading only the columns it mentions and skipping what its simple {@code WHERE} conditions rule out
 * (partition pruning, column statistics). The scan starts when DuckDB pulls the first batch and is closed when the
 * statement ends.
 *
 * <pre>{@code
 * try (Table trips = Tables.open("/data/trips", Config.empty());
 *     SluiceSql sql = SluiceSql.open(List.of(new SqlTable("trips", trips)), SqlOptions.defaults())) {
 *   sql.query("SELECT city, count(*) FROM trips GROUP BY city", rs -> { ...; return null; });
 * }
 * }</pre>
 *
 * <p>Not thread-safe: one statement at a time. Arrow needs {@code --add-opens=java.base/java.nio=ALL-UNNAMED}.
 */
public final class SluiceSql implements AutoCloseable {
  private static final Pattern ALIAS = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern MISSING_TABLE = Pattern.compile("Table with name (\\S+) does not exist");

  private final Map<String, View> views;
  /** Per-table time travel, by alias (lower-cased). */
  private final Map<String, String> asOf;
  private final SqlOptions options;
  private final Connection connection;
  private final BufferAllocator allocator;

  /** A statement's use of a result set. */
  @FunctionalInterface
  public interface ResultHandler<T> {
    /** Reads {@code rows}; the statement's scans are open until this returns. */
    T apply(ResultSet rows) throws SQLException, IOException;
  }

  /**
   * One view: its name in SQL, the table alias it belongs to, and the query type it reads.
   *
   * @param name the name in SQL ({@code trips}, {@code trips_ro}, {@code trips_rt}, {@code trips_incr})
   * @param alias the table's alias
   * @param type snapshot, read-optimized or incremental
   * @param table the table
   */
  public record View(String name, String alias, QueryType type, Table table) {
  }

  /**
   * The scan a statement asks of one view, as planned.
   *
   * @param view the view's name
   * @param columns the user columns read, empty for all
   * @param filter the conditions pushed into the scan, if any
   */
  public record PlannedScan(String view, List<String> columns, Optional<Expression> filter) {
  }

  private SluiceSql(Map<String, View> views, Map<String, String> asOf, SqlOptions options, Connection connection,
      BufferAllocator allocator) {
    this.views = views;
    this.asOf = asOf;
    this.options = options;
    this.connection = connection;
    this.allocator = allocator;
  }

  /** Opens an in-memory DuckDB with the views of {@code tables} (the tables stay the caller's to close). */
  public static SluiceSql open(List<SqlTable> tables, SqlOptions options) {
    Map<String, View> views = new LinkedHashMap<>();
    Map<String, String> asOf = new LinkedHashMap<>();
    for (SqlTable t : tables) {
      if (!ALIAS.matcher(t.alias()).matches()) {
        throw SluiceException.badInput("--table " + t.alias(), null, "the alias '" + t.alias() + "' is not a SQL name",
            "letters, digits and '_', not starting with a digit, e.g. --table trips=/data/trips");
      }
      add(views, new View(t.alias(), t.alias(), QueryType.SNAPSHOT, t.table()));
      if (t.table().type() == TableType.MERGE_ON_READ) {
        add(views, new View(t.alias() + "_ro", t.alias(), QueryType.READ_OPTIMIZED, t.table()));
        add(views, new View(t.alias() + "_rt", t.alias(), QueryType.SNAPSHOT, t.table()));
      }
      if (options.from().isPresent()) {
        add(views, new View(t.alias() + "_incr", t.alias(), QueryType.INCREMENTAL, t.table()));
      }
      t.asOf().ifPresent(instant -> asOf.put(QueryPlan.lower(t.alias()), instant));
    }
    BufferAllocator allocator = new RootAllocator();
    try {
      Connection c = DriverManager.getConnection("jdbc:duckdb:");
      return new SluiceSql(views, Map.copyOf(asOf), options, c, allocator);
    } catch (SQLException e) {
      allocator.close();
      throw SluiceException.internal("Could not start DuckDB: " + e.getMessage(), e);
    }
  }

  private static void add(Map<String, View> views, View v) {
    if (views.putIfAbsent(QueryPlan.lower(v.name()), v) != null) {
      throw SluiceException.badInput("--table " + v.alias(), null, "the view name '" + v.name() + "' is taken twice",
          "one alias per table, none ending in _ro, _rt or _incr of another");
    }
  }

  /** The views, in the order of the tables. */
  public List<View> views() {
    return List.copyOf(views.values());
  }

  /** The scans {@code sql} would start: which views, which columns, which pushed conditions. */
  public List<PlannedScan> plan(String sql) {
    QueryPlan plan = parse(sql);
    List<PlannedScan> out = new ArrayList<>();
    for (String name : plan.relations().keySet()) {
      View v = views.get(name);
      if (v != null) {
        out.add(plannedScan(v, plan));
      }
    }
    return out;
  }

  /**
   * Runs one statement; {@code handler} reads its rows (statements without rows, e.g. {@code CREATE TABLE}, return
   * empty). A DuckDB error is bad input (exit 3 on the command line) naming the statement; an error of the scan
   * feeding it is rethrown as itself.
   */
  public <T> Optional<T> query(String sql, ResultHandler<T> handler) {
    return withFeeds(sql, () -> {
      try (Statement st = connection.createStatement()) {
        if (!st.execute(sql)) {
          return Optional.empty();
        }
        try (ResultSet rs = st.getResultSet()) {
          return Optional.ofNullable(handler.apply(rs));
        }
      }
    });
  }

  /** Runs {@code sql} and prints its rows to {@code out}; returns the number of rows. */
  public long print(String sql, OutputFormat format, PrintWriter out) {
    return query(sql, rs -> ResultPrinter.print(rs, format, out)).orElse(0L);
  }

  /**
   * Writes the rows of {@code sql} to {@code file} (replaced if it exists) as Parquet or an Arrow IPC file; returns the
   * number of rows written.
   */
  public long write(String sql, Path file, FileFormat format) {
    Path target = file.toAbsolutePath();
    return withFeeds(sql, () -> {
      Files.deleteIfExists(target);
      if (format == FileFormat.ARROW) {
        return writeArrow(sql, target);
      }
      try (Statement st = connection.createStatement()) {
        // COPY answers with the number of rows it wrote
        if (st.execute("COPY (" + sql + ") TO '" + target.toString().replace("'", "''") + "' (FORMAT parquet)")) {
          try (ResultSet rs = st.getResultSet()) {
            return rs.next() ? rs.getLong(1) : 0L;
          }
        }
        return (long) st.getUpdateCount();
      }
    });
  }

  /**
   * A file written by {@link #export}.
   *
   * @param file the file
   * @param rows how many rows it holds
   */
  public record Exported(Path file, long rows) {
  }

  /** {@code sluice export}: every row of view {@code view} into {@code dir}/{@code view}.parquet or .arrow. */
  public Exported export(String view, Path dir, FileFormat format) {
    View v = views.get(QueryPlan.lower(view));
    if (v == null) {
      throw SluiceException.badRequest("export of " + view, "no such view", "One of " + viewNames() + ".");
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw SluiceException.storage("create the directory", dir.toString(), e);
    }
    Path file = dir.resolve(v.name() + format.extension());
    long rows = write("SELECT * FROM \"" + v.name() + "\"", file, format);
    return new Exported(file, rows);
  }

  private long writeArrow(String sql, Path target) throws SQLException, IOException {
    long rows = 0;
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql);
        ArrowReader reader = (ArrowReader) ((DuckDBResultSet) rs).arrowExportStream(allocator, 65536);
        FileChannel ch = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        ArrowFileWriter w = new ArrowFileWriter(reader.getVectorSchemaRoot(), null, ch)) {
      w.start();
      while (reader.loadNextBatch()) {
        rows += reader.getVectorSchemaRoot().getRowCount();
        w.writeBatch();
      }
      w.end();
    }
    return rows;
  }

  /** A body run with the statement's views registered. */
  @FunctionalInterface
  private interface Body<T> {
    T run() throws SQLException, IOException;
  }

  /** One view registered for one statement: the stream DuckDB reads and the reader behind it. */
  private record Feed(String name, ArrowRows rows, ArrowArrayStream stream, boolean materialized) {
  }

  private <T> T withFeeds(String sql, Body<T> body) {
    QueryPlan plan = parse(sql);
    List<Feed> feeds = new ArrayList<>();
    try {
      for (Map.Entry<String, Integer> r : plan.relations().entrySet()) {
        View v = views.get(r.getKey());
        if (v != null) {
          feeds.add(register(v, plan, r.getValue() > 1));
        }
      }
      return body.run();
    } catch (SQLException e) {
      for (Feed f : feeds) {
        if (f.rows().failure().isPresent()) {
          throw f.rows().failure().get();
        }
      }
      throw translate(e, sql);
    } catch (IOException e) {
      throw SluiceException.storage("write the result of", sql, e);
    } finally {
      release(feeds);
    }
  }

  /**
   * Registers view {@code v}'s scan under its name. DuckDB reads a registered stream once: a view named more than once
   * in the statement (a self-join) is first copied into a temporary table of that name.
   */
  private Feed register(View v, QueryPlan plan, boolean materialize) throws SQLException {
    PlannedScan planned = plannedScan(v, plan);
    Scan scan = scan(v);
    if (!planned.columns().isEmpty()) {
      scan = scan.select(planned.columns());
    }
    if (planned.filter().isPresent()) {
      scan = scan.filter(planned.filter().get());
    }
    Schema schema = scan.schema();
    ArrowRows rows = new ArrowRows(allocator, schema, scan.open(), options.batchSize());
    ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
    Feed feed = new Feed(v.name(), rows, stream, materialize);
    try {
      Data.exportArrayStream(allocator, rows, stream);
      String streamName = materialize ? "__sluice_feed_" + v.name() : v.name();
      connection.unwrap(DuckDBConnection.class).registerArrowStream(streamName, stream);
      if (materialize) {
        try (Statement st = connection.createStatement()) {
          st.execute("CREATE OR REPLACE TEMP TABLE \"" + v.name() + "\" AS SELECT * FROM \"" + streamName + "\"");
          st.execute("DROP VIEW IF EXISTS \"" + streamName + "\"");
        }
      }
      return feed;
    } catch (SQLException | RuntimeException e) {
      release(List.of(feed));
      throw e;
    }
  }

  private void release(List<Feed> feeds) {
    RuntimeException first = null;
    for (Feed f : feeds) {
      try (Statement st = connection.createStatement()) {
        st.execute((f.materialized() ? "DROP TABLE IF EXISTS \"" : "DROP VIEW IF EXISTS \"") + f.name() + "\"");
      } catch (SQLException e) {
        first = first == null ? SluiceException.internal("Could not drop the view " + f.name(), e) : first;
      }
      f.stream().release();
      f.stream().close();
      try {
        f.rows().close();
      } catch (IOException | RuntimeException e) {
        first = first == null ? SluiceException.internal("Could not close the scan of " + f.name(), e) : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }

  private Scan scan(View v) {
    Scan scan = v.table().newScan().queryType(v.type()).withMetaColumns(options.meta());
    if (v.type() == QueryType.INCREMENTAL) {
      String from = options.from().orElseThrow();
      scan = options.to().isPresent() ? scan.incremental(from, options.to().get()) : scan.incremental(from);
    } else {
      // the table's own instant first, then the one for every table
      Optional<String> instant = Optional.ofNullable(asOf.get(QueryPlan.lower(v.alias()))).or(options::asOf);
      if (instant.isPresent()) {
        scan = scan.asOf(instant.get());
      }
    }
    return scan;
  }

  private PlannedScan plannedScan(View v, QueryPlan plan) {
    Schema all = v.table().schema();
    if (plan.star()) {
      return new PlannedScan(v.name(), List.of(), filter(all, plan));
    }
    List<String> columns = new ArrayList<>();
    for (Schema.Field f : all.getFields()) {
      if (plan.columns().contains(QueryPlan.lower(f.name()))) {
        columns.add(f.name());
      }
    }
    if (columns.isEmpty()) {
      // count(*) and the like: rows but no values; one column carries the row count
      columns.add(all.getFields().get(0).name());
    }
    return new PlannedScan(v.name(), List.copyOf(columns), filter(all, plan));
  }

  private static Optional<Expression> filter(Schema schema, QueryPlan plan) {
    List<Expression> parts = new ArrayList<>();
    for (QueryPlan.Condition c : plan.conditions()) {
      expression(schema, c).ifPresent(parts::add);
    }
    return parts.isEmpty() ? Optional.empty() : Optional.of(Expressions.and(parts));
  }

  /** One conjunct as a Sluice expression, if every part of it can be one. */
  private static Optional<Expression> expression(Schema schema, QueryPlan.Condition c) {
    if (c instanceof QueryPlan.AnyOf any) {
      List<Expression> alternatives = new ArrayList<>();
      for (QueryPlan.Condition a : any.alternatives()) {
        Optional<Expression> e = expression(schema, a);
        if (e.isEmpty()) {
          return Optional.empty();
        }
        alternatives.add(e.get());
      }
      return Optional.of(Expressions.or(alternatives.get(0),
          alternatives.subList(1, alternatives.size()).toArray(new Expression[0])));
    }
    String column = c instanceof QueryPlan.Compare cmp ? cmp.column()
        : c instanceof QueryPlan.InList in ? in.column() : ((QueryPlan.Prefix) c).column();
    Optional<Schema.Field> field = schema.getFields().stream()
        .filter(f -> QueryPlan.lower(f.name()).equals(column)).findFirst();
    if (field.isEmpty()) {
      return Optional.empty();
    }
    String name = field.get().name();
    Schema type = ArrowRows.nonNull(field.get().schema());
    if (type.getLogicalType() != null) {
      return Optional.empty();
    }
    if (c instanceof QueryPlan.Prefix p) {
      return prefix(name, type, p.prefix());
    }
    if (c instanceof QueryPlan.InList in) {
      List<Object> literals = new ArrayList<>();
      for (QueryPlan.Constant k : in.constants()) {
        Object literal = literal(type, "COMPARE_EQUAL", k);
        if (literal == null) {
          return Optional.empty();
        }
        literals.add(literal);
      }
      return Optional.of(Expressions.in(name, literals));
    }
    QueryPlan.Compare cmp = (QueryPlan.Compare) c;
    Object literal = literal(type, cmp.operator(), cmp.constant());
    if (literal == null) {
      return Optional.empty();
    }
    return Optional.of(switch (cmp.operator()) {
      case "COMPARE_EQUAL" -> Expressions.eq(name, literal);
      case "COMPARE_NOTEQUAL" -> Expressions.ne(name, literal);
      case "COMPARE_LESSTHAN" -> Expressions.lt(name, literal);
      case "COMPARE_GREATERTHAN" -> Expressions.gt(name, literal);
      case "COMPARE_LESSTHANOREQUALTO" -> Expressions.le(name, literal);
      default -> Expressions.ge(name, literal);
    });
  }

  /**
   * {@code column LIKE 'p%'} as the range {@code p <= column < p'}, p' being p with its last character one higher:
   * every text starting with p lies in it, in the scan's order (code points, which is UTF-8 byte order, DuckDB's
   * too), so partitions and files outside it hold no match. Only plain text columns, and a last character below the
   * surrogates (its successor must be a character of its own).
   */
  private static Optional<Expression> prefix(String column, Schema type, String prefix) {
    char last = prefix.charAt(prefix.length() - 1);
    if (type.getType() != Schema.Type.STRING || last >= Character.MIN_SURROGATE - 1) {
      return Optional.empty();
    }
    String upper = prefix.substring(0, prefix.length() - 1) + (char) (last + 1);
    return Optional.of(Expressions.and(Expressions.ge(column, prefix), Expressions.lt(column, upper)));
  }

  /**
   * The constant as the scan's literal when the scan's comparison means what DuckDB's does: numbers against plain
   * numeric columns (the constant as the column's Java type), and equality of text and booleans (text order is not
   * pushed for comparisons). Null when it is not pushed.
   */
  private static Object literal(Schema type, String operator, QueryPlan.Constant c) {
    return switch (type.getType()) {
      case INT, LONG -> integer(c).filter(n -> type.getType() == Schema.Type.LONG
          || n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE)
          .map(n -> type.getType() == Schema.Type.LONG ? (Object) n : (Object) n.intValue()).orElse(null);
      case DOUBLE -> number(c).map(BigDecimal::doubleValue).orElse(null);
      case STRING -> operator.equals("COMPARE_EQUAL") && c.typeId().equals("VARCHAR") ? c.value().asText() : null;
      case BOOLEAN -> operator.equals("COMPARE_EQUAL") && c.typeId().equals("BOOLEAN") ? c.value().asBoolean() : null;
      default -> null;
    };
  }

  private static Optional<Long> integer(QueryPlan.Constant c) {
    return switch (c.typeId()) {
      case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER" ->
          c.value().canConvertToLong() ? Optional.of(c.value().asLong()) : Optional.empty();
      default -> Optional.empty();
    };
  }

  private static Optional<BigDecimal> number(QueryPlan.Constant c) {
    return switch (c.typeId()) {
      case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER" ->
          Optional.of(BigDecimal.valueOf(c.value().asLong()));
      case "DECIMAL" -> c.value().isIntegralNumber()
          ? Optional.of(new BigDecimal(c.value().bigIntegerValue(), c.scale())) : Optional.empty();
      default -> Optional.empty();
    };
  }

  private QueryPlan parse(String sql) {
    try (PreparedStatement ps = connection.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)")) {
      ps.setString(1, sql);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return QueryPlan.of(rs.getString(1), sql, views.keySet());
      }
    } catch (SQLException e) {
      return QueryPlan.fallback(sql, views.keySet());
    }
  }

  private SluiceException translate(SQLException e, String sql) {
    String message = e.getMessage() == null ? e.toString() : e.getMessage().strip();
    Matcher m = MISSING_TABLE.matcher(message);
    if (m.find()) {
      return SluiceException.badInput("the SQL query \"" + oneLine(sql) + "\"", null,
          "no table or view named " + m.group(1), "one of the views " + String.join(", ", viewNames())
              + " (--table ALIAS=PATH names a table; Merge-on-Read tables add ALIAS_ro and ALIAS_rt)");
    }
    return SluiceException.badInput("the SQL query \"" + oneLine(sql) + "\"", message, e);
  }

  private List<String> viewNames() {
    return views.values().stream().map(View::name).toList();
  }

  private static String oneLine(String sql) {
    String s = sql.strip().replaceAll("\\s+", " ");
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw SluiceException.internal("Could not close DuckDB", e);
    } finally {
      allocator.close();
    }
  }
}
