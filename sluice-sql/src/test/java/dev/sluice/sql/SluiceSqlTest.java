package dev.sluice.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Config;
import dev.sluice.api.Expressions;
import dev.sluice.api.QueryType;
import dev.sluice.api.Scan;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import java.io.BufferedReader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SQL over real tables written by the engine, run by the real DuckDB: every result is compared with the same figure
 * computed here from the rows the Scan API returns (snapshot with log files merged and deletes applied,
 * read-optimized, time travel, incremental), never with numbers written into the test.
 */
class SluiceSqlTest {
  private static final Schema SCHEMA = SchemaBuilder.record("trip").fields()
      .requiredString("id").requiredLong("ts").requiredString("city").requiredDouble("fare").optionalInt("n")
      .endRecord();
  private static final List<String> CITIES = List.of("ams", "ber", "cph");

  @TempDir
  Path dir;

  /** Rows {@code from..to-1}; {@code ts} marks the write, fares differ per write so updates are visible. */
  private static List<GenericRecord> rows(int from, int to, long ts) {
    List<GenericRecord> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      GenericRecord r = new GenericData.Record(SCHEMA);
      r.put("id", String.format("k%04d", i));
      r.put("ts", ts);
      r.put("city", CITIES.get(i % CITIES.size()));
      r.put("fare", i * 0.5 + ts);
      r.put("n", i % 7 == 0 ? null : i % 11);
      out.add(r);
    }
    return out;
  }

  /** Three writes and a delete: 300 rows, 90 of them updated (in log files on MoR), 30 deleted. */
  private record Written(Table table, List<String> instants) {
  }

  private Written write(TableType type, Optional<InterceptedStorage.Interceptor> counting) {
    String location = dir.resolve(type.name().toLowerCase()).toString();
    Config config = Config.of(Map.of("hoodie.parquet.small.file.limit", "0"));
    List<String> instants = new ArrayList<>();
    try (Table t = Tables.create(location, TableSpec.builder("trips").type(type).recordKey("id").precombine("ts")
        .partitionBy("city").schema(SCHEMA).build(), config)) {
      instants.add(t.insert(rows(0, 300, 1).iterator()).instantTime());
      instants.add(t.upsert(rows(0, 90, 2).iterator()).instantTime());
      instants.add(t.delete(rows(200, 230, 3).iterator()).instantTime());
    }
    Table opened = counting.isPresent()
        ? Tables.open(new InterceptedStorage(new LocalStorage(), counting.get()), location, config)
        : Tables.open(location, config);
    return new Written(opened, instants);
  }

  private static List<String> scanRows(Scan scan) {
    List<String> out = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = scan.open()) {
      it.forEachRemaining(r -> out.add(r.get("id") + "|" + r.get("ts") + "|" + r.get("city") + "|" + r.get("fare") + "|"
          + r.get("n")));
    }
    out.sort(null);
    return out;
  }

  private static List<String> sqlRows(SluiceSql sql, String view) {
    return sql.query("SELECT id, ts, city, fare, n FROM " + view + " ORDER BY id", rs -> {
      List<String> out = new ArrayList<>();
      while (rs.next()) {
        out.add(rs.getString(1) + "|" + rs.getLong(2) + "|" + rs.getString(3) + "|" + rs.getDouble(4) + "|"
            + rs.getObject(5));
      }
      return out;
    }).orElseThrow();
  }

  /** city -> "count|sum(fare)|max(ts)" from SQL. */
  private static Map<String, String> sqlAggregate(SluiceSql sql, String query) {
    return sql.query(query, rs -> {
      Map<String, String> out = new TreeMap<>();
      while (rs.next()) {
        out.put(rs.getString(1), rs.getLong(2) + "|" + rs.getDouble(3) + "|" + rs.getLong(4));
      }
      return out;
    }).orElseThrow();
  }

  /** The same aggregate over the Scan API's rows. */
  private static Map<String, String> scanAggregate(Scan scan, Function<GenericRecord, Boolean> where) {
    Map<String, long[]> counts = new TreeMap<>();
    Map<String, Double> sums = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = scan.open()) {
      it.forEachRemaining(r -> {
        if (where.apply(r)) {
          String city = r.get("city").toString();
          long[] c = counts.computeIfAbsent(city, k -> new long[2]);
          c[0]++;
          c[1] = Math.max(c[1], (Long) r.get("ts"));
          sums.merge(city, (Double) r.get("fare"), Double::sum);
        }
      });
    }
    Map<String, String> out = new TreeMap<>();
    counts.forEach((city, c) -> out.put(city, c[0] + "|" + sums.get(city) + "|" + c[1]));
    return out;
  }

  private static SluiceSql open(Table t) {
    return SluiceSql.open(List.of(new SqlTable("trips", t)), SqlOptions.defaults());
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void queriesEqualTheSameFiguresOverTheScanRows(TableType type) {
    Written w = write(type, Optional.empty());
    try (Table t = w.table(); SluiceSql sql = open(t)) {
      List<String> snapshot = scanRows(t.newScan());
      assertEquals(snapshot, sqlRows(sql, "trips"));
      // sums over doubles: DuckDB adds in another order, so compare after the same rounding
      String agg = "SELECT city, count(*), round(sum(fare), 6), max(ts) FROM trips GROUP BY city";
      assertEquals(round(scanAggregate(t.newScan(), r -> true)), sqlAggregate(sql, agg));
      String filtered = "SELECT city, count(*), round(sum(fare), 6), max(ts) FROM trips WHERE city = 'ber' AND ts >= 2 "
          + "GROUP BY city";
      Map<String, String> expected = round(scanAggregate(t.newScan(),
          r -> r.get("city").toString().equals("ber") && (Long) r.get("ts") >= 2));
      assertFalse(expected.isEmpty());
      assertEquals(expected, sqlAggregate(sql, filtered));
      // the updates and deletes are in the result: 300 written, 30 deleted, 90 at ts 2
      assertEquals(270, snapshot.size());
      if (type == TableType.MERGE_ON_READ) {
        List<String> ro = scanRows(t.newScan().queryType(QueryType.READ_OPTIMIZED));
        assertEquals(ro, sqlRows(sql, "trips_ro"));
        assertEquals(snapshot, sqlRows(sql, "trips_rt"));
        // the updates and deletes live only in log files: the base files alone differ
        assertNotEquals(snapshot, ro);
      } else {
        assertEquals(Set.of("trips"), Set.copyOf(sql.views().stream().map(SluiceSql.View::name).toList()));
      }
    }
  }

  private static Map<String, String> round(Map<String, String> m) {
    Map<String, String> out = new TreeMap<>();
    m.forEach((k, v) -> {
      String[] p = v.split("\\|");
      double sum = Math.round(Double.parseDouble(p[1]) * 1e6) / 1e6;
      out.put(k, p[0] + "|" + sum + "|" + p[2]);
    });
    return out;
  }

  @Test
  void timeTravelAndIncrementalViewsEqualTheirScans() {
    Written w = write(TableType.MERGE_ON_READ, Optional.empty());
    try (Table t = w.table()) {
      String first = w.instants().get(0);
      try (SluiceSql sql = SluiceSql.open(List.of(new SqlTable("trips", t)),
          new SqlOptions(Optional.of(first), Optional.of(first), Optional.empty(), false, 64))) {
        List<String> asOf = scanRows(t.newScan().asOf(first));
        assertEquals(asOf, sqlRows(sql, "trips"));
        assertNotEquals(scanRows(t.newScan()), asOf);
        List<String> incr = scanRows(t.newScan().queryType(QueryType.INCREMENTAL).incremental(first));
        assertEquals(incr, sqlRows(sql, "trips_incr"));
        assertFalse(incr.isEmpty());
      }
    }
  }

  @Test
  void eachTableCanHaveItsOwnInstant() {
    Written w = write(TableType.MERGE_ON_READ, Optional.empty());
    try (Table t = w.table()) {
      String first = w.instants().get(0);
      String second = w.instants().get(1);
      SqlTable.Argument a = SqlTable.Argument.parse("past=" + dir + "@" + first);
      assertEquals(new SqlTable.Argument("past", dir.toString(), Optional.of(first)), a);
      assertEquals(new SqlTable.Argument("now", "/a@b/t", Optional.empty()), SqlTable.Argument.parse("now=/a@b/t"));
      assertThrows(SluiceException.class, () -> SqlTable.Argument.parse("/data/trips"));
      // the table's own instant wins over the one for every table; a table without one takes the global one
      try (SluiceSql sql = SluiceSql.open(List.of(new SqlTable("past", t, a.asOf()), new SqlTable("now", t)),
          new SqlOptions(Optional.of(second), Optional.empty(), Optional.empty(), false, 64))) {
        assertEquals(scanRows(t.newScan().asOf(first)), sqlRows(sql, "past"));
        assertEquals(scanRows(t.newScan().asOf(second)), sqlRows(sql, "now"));
        assertNotEquals(sqlRows(sql, "past"), sqlRows(sql, "now"));
      }
      try (SluiceSql sql = SluiceSql.open(List.of(new SqlTable("past", t, a.asOf()), new SqlTable("now", t)),
          SqlOptions.defaults())) {
        assertEquals(scanRows(t.newScan()), sqlRows(sql, "now"));
        assertEquals(scanRows(t.newScan().queryType(QueryType.READ_OPTIMIZED).asOf(first)), sqlRows(sql, "past_ro"));
      }
    }
  }

  @Test
  void aSelfJoinReadsAViewNamedTwice() {
    Written w = write(TableType.MERGE_ON_READ, Optional.empty());
    try (Table t = w.table(); SluiceSql sql = open(t)) {
      long joined = sql.query("SELECT count(*) FROM trips a JOIN trips_ro b ON a.id = b.id AND a.fare <> b.fare",
          rs -> {
            rs.next();
            return rs.getLong(1);
          }).orElseThrow();
      Map<String, Double> ro = new TreeMap<>();
      try (CloseableIterator<GenericRecord> it = t.newScan().queryType(QueryType.READ_OPTIMIZED).open()) {
        it.forEachRemaining(r -> ro.put(r.get("id").toString(), (Double) r.get("fare")));
      }
      long changed = 0;
      try (CloseableIterator<GenericRecord> it = t.newScan().open()) {
        while (it.hasNext()) {
          GenericRecord r = it.next();
          Double before = ro.get(r.get("id").toString());
          changed += before != null && !before.equals(r.get("fare")) ? 1 : 0;
        }
      }
      assertEquals(changed, joined);
      long self = sql.query("SELECT count(*) FROM trips a JOIN trips b USING (id)", rs -> {
        rs.next();
        return rs.getLong(1);
      }).orElseThrow();
      assertEquals(scanRows(t.newScan()).size(), self);
    }
  }

  /** Data files (base and log) opened, by path. */
  private static final class Opened implements InterceptedStorage.Interceptor {
    final Set<String> files = ConcurrentHashMap.newKeySet();

    @Override
    public void before(InterceptedStorage.Call call) {
      if (call.op() == InterceptedStorage.Op.OPEN && !call.path().contains("/.hoodie/")
          && (call.path().endsWith(".parquet") || call.path().contains(".log."))) {
        files.add(call.path());
      }
    }

    Set<String> partitions() {
      Set<String> out = new TreeSet<>();
      for (String f : files) {
        String parent = f.substring(0, f.lastIndexOf('/'));
        out.add(parent.substring(parent.lastIndexOf('/') + 1));
      }
      return out;
    }
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void aQueryOnOnePartitionOpensOnlyThatPartitionsFiles(TableType type) {
    Opened opened = new Opened();
    Written w = write(type, Optional.of(opened));
    try (Table t = w.table(); SluiceSql sql = open(t)) {
      String query = "SELECT count(*) FROM trips WHERE city = 'cph'";
      assertEquals(List.of(new SluiceSql.PlannedScan("trips", List.of("city"), Optional.of(Expressions.and(
          List.of(Expressions.eq("city", "cph")))))), sql.plan(query));
      opened.files.clear();
      long n = sql.query(query, rs -> {
        rs.next();
        return rs.getLong(1);
      }).orElseThrow();
      assertEquals(Set.of("cph"), opened.partitions(), "files opened: " + opened.files);
      assertEquals(scanRows(t.newScan().filter(Expressions.eq("city", "cph"))).size(), n);
      // without the condition every partition is read
      opened.files.clear();
      sql.query("SELECT count(*) FROM trips", rs -> rs.next());
      assertEquals(Set.copyOf(CITIES), opened.partitions());
      // a join is not pushed down: the conditions stay DuckDB's alone
      assertEquals(Optional.empty(), sql.plan("SELECT count(*) FROM trips a, trips b WHERE a.city = 'cph' AND a.id = b.id")
          .get(0).filter());
    }
  }

  @Test
  void projectionReadsOnlyTheMentionedColumns() {
    Written w = write(TableType.COPY_ON_WRITE, Optional.empty());
    try (Table t = w.table(); SluiceSql sql = open(t)) {
      assertEquals(List.of("city", "fare"), sql.plan("SELECT city, sum(fare) FROM trips GROUP BY city").get(0).columns());
      assertEquals(List.of(), sql.plan("SELECT * FROM trips").get(0).columns());
      // a numeric range on a plain long column goes to the scan (statistics) as the column's type
      assertEquals(Optional.of(Expressions.and(List.of(Expressions.gt("ts", 1L)))),
          sql.plan("SELECT id FROM trips WHERE 1 < ts").get(0).filter());
      // text order is DuckDB's alone (it orders UTF-8 bytes)
      assertEquals(Optional.empty(), sql.plan("SELECT id FROM trips WHERE city > 'b'").get(0).filter());
    }
  }

  @Test
  void errorsNameTheQueryAndAreBadInput() {
    Written w = write(TableType.MERGE_ON_READ, Optional.empty());
    try (Table t = w.table(); SluiceSql sql = open(t)) {
      SluiceException unknown = assertThrows(SluiceException.class, () -> sql.print("SELECT * FROM trip",
          OutputFormat.CSV, new PrintWriter(new StringWriter())));
      assertEquals(SluiceException.Kind.BAD_INPUT, unknown.kind());
      assertTrue(unknown.getMessage().contains("SELECT * FROM trip") && unknown.getMessage().contains("trips_ro"),
          unknown.getMessage());
      SluiceException bad = assertThrows(SluiceException.class, () -> sql.print("SELEC 1", OutputFormat.CSV,
          new PrintWriter(new StringWriter())));
      assertEquals(SluiceException.Kind.BAD_INPUT, bad.kind());
      assertTrue(bad.getMessage().contains("SELEC 1") && bad.getMessage().contains("syntax error"), bad.getMessage());
      // the connection is still usable
      assertEquals(sqlRows(sql, "trips"), scanRows(t.newScan()));
      SluiceException alias = assertThrows(SluiceException.class, () -> SluiceSql.open(
          List.of(new SqlTable("1trips", t)), SqlOptions.defaults()));
      assertEquals(SluiceException.Kind.BAD_INPUT, alias.kind());
    }
  }

  @Test
  void exportedFilesReadBackAsTheSameRows() throws java.io.IOException {
    Written w = write(TableType.MERGE_ON_READ, Optional.empty());
    try (Table t = w.table(); SluiceSql sql = open(t)) {
      List<String> expected = scanRows(t.newScan());
      SluiceSql.Exported exported = sql.export("trips", dir.resolve("out"), FileFormat.PARQUET);
      assertEquals(expected.size(), exported.rows());
      Path parquet = exported.file();
      assertEquals(expected, sqlRows(sql, "read_parquet('" + parquet + "')"));
      SluiceSql.Exported arrowExport = sql.export("trips", dir.resolve("out"), FileFormat.ARROW);
      assertEquals(expected.size(), arrowExport.rows());
      Path arrow = arrowExport.file();
      List<String> back = new ArrayList<>();
      try (RootAllocator a = new RootAllocator(); FileChannel ch = FileChannel.open(arrow);
          ArrowFileReader r = new ArrowFileReader(ch, a)) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        while (r.loadNextBatch()) {
          for (int i = 0; i < root.getRowCount(); i++) {
            back.add(root.getVector("id").getObject(i) + "|" + root.getVector("ts").getObject(i) + "|"
                + root.getVector("city").getObject(i) + "|" + root.getVector("fare").getObject(i) + "|"
                + root.getVector("n").getObject(i));
          }
        }
      }
      back.sort(null);
      assertEquals(expected, back);
    }
  }

  @Test
  void theShellRunsStatementsUpToTheSemicolonAndGoesOnAfterAnError() throws java.io.IOException {
    Written w = write(TableType.COPY_ON_WRITE, Optional.empty());
    try (Table t = w.table(); SluiceSql sql = open(t)) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      String input = "SELECT count(*) AS n\n  FROM trips;\nSELECT nope FROM trips;\n.timer on\nSELECT max(ts) AS m FROM trips;\n";
      int failed = new SqlShell(sql, OutputFormat.CSV).run(new BufferedReader(new StringReader(input)),
          new PrintWriter(out), new PrintWriter(err), false);
      assertEquals(1, failed);
      List<String> rows = scanRows(t.newScan());
      long maxTs = rows.stream().mapToLong(r -> Long.parseLong(r.split("\\|")[1])).max().orElseThrow();
      assertEquals("n\n" + rows.size() + "\nm\n" + maxTs + "\n", out.toString());
      assertTrue(err.toString().contains("nope"), err.toString());
      // the timer was turned on before the third statement only
      assertEquals(1, err.toString().lines().filter(l -> l.matches("time: \\d+ ms")).count(), err.toString());
    }
  }

  @Test
  void resultsOfEveryFormat() {
    Written w = write(TableType.COPY_ON_WRITE, Optional.empty());
    try (Table t = w.table(); SluiceSql sql = open(t)) {
      String q = "SELECT city, count(*) AS n, NULL AS x FROM trips GROUP BY city ORDER BY city";
      Map<String, String> counts = new TreeMap<>();
      scanRows(t.newScan()).forEach(r -> counts.merge(r.split("\\|")[2], "1", (a, b) -> Long.toString(Long.parseLong(a) + 1)));
      StringBuilder csv = new StringBuilder("city,n,x\n");
      StringBuilder jsonl = new StringBuilder();
      counts.forEach((c, n) -> {
        csv.append(c).append(',').append(n).append(",\n");
        jsonl.append("{\"city\":\"").append(c).append("\",\"n\":").append(n).append(",\"x\":null}\n");
      });
      assertEquals(csv.toString(), print(sql, q, OutputFormat.CSV));
      assertEquals(jsonl.toString(), print(sql, q, OutputFormat.JSONL));
      List<String> lines = List.of(print(sql, q, OutputFormat.TABLE).split("\n"));
      List<String> expected = new ArrayList<>(List.of("city n x"));
      counts.forEach((c, n) -> expected.add(c + " " + n + " NULL"));
      expected.add("(" + counts.size() + " rows)");
      List<String> cells = new ArrayList<>(lines.stream().map(l -> l.strip().replaceAll(" +", " ")).toList());
      assertTrue(cells.remove(1).matches("-+ -+ -+"), lines.toString());
      assertEquals(expected, cells);
      // aligned: every row line is as long as the rule under the header
      assertEquals(lines.get(1).length(), lines.get(2).length());
    }
  }

  private static String print(SluiceSql sql, String q, OutputFormat f) {
    StringWriter s = new StringWriter();
    sql.print(q, f, new PrintWriter(s));
    return s.toString();
  }
}
