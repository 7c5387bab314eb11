package dev.sluice.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Config;
import dev.sluice.api.Expression;
import dev.sluice.api.Expressions;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * IN lists, ORs and prefix LIKEs of a query's WHERE go into Sluice's scan: shown by the partitions whose data files
 * the real DuckDB's query makes the scan open, and by the results, which equal the same count over the rows the Scan
 * API returns (with log files merged on Merge-on-Read). What cannot be pushed leaves every partition read.
 */
class SqlPushdownTest {
  private static final Schema SCHEMA = SchemaBuilder.record("trip").fields()
      .requiredString("id").requiredLong("ts").requiredString("city").requiredInt("x").endRecord();
  /** "ber" and "bern" share the prefix "be"; "bf" is just past it. */
  private static final List<String> CITIES = List.of("ams", "ber", "bern", "bf", "cph");

  @org.junit.jupiter.api.io.TempDir
  Path dir;

  /** Data files (base and log) opened. */
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

  private static List<GenericRecord> rows(int from, int to, long ts) {
    List<GenericRecord> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      GenericRecord r = new GenericData.Record(SCHEMA);
      r.put("id", String.format("k%04d", i));
      r.put("ts", ts);
      r.put("city", CITIES.get(i % CITIES.size()));
      r.put("x", (int) (i % 13 + ts));
      out.add(r);
    }
    return out;
  }

  private Table write(TableType type, Opened opened) {
    String location = dir.resolve(type.name().toLowerCase()).toString();
    Config config = Config.of(Map.of("hoodie.parquet.small.file.limit", "0"));
    try (Table t = Tables.create(location, TableSpec.builder("trips").type(type).recordKey("id").precombine("ts")
        .partitionBy("city").schema(SCHEMA).build(), config)) {
      t.insert(rows(0, 250, 1).iterator());
      t.upsert(rows(0, 100, 2).iterator());
    }
    return Tables.open(new InterceptedStorage(new LocalStorage(), opened), location, config);
  }

  private static long count(Table t, Predicate<GenericRecord> where) {
    long n = 0;
    try (CloseableIterator<GenericRecord> it = t.newScan().open()) {
      while (it.hasNext()) {
        n += where.test(it.next()) ? 1 : 0;
      }
    }
    return n;
  }

  /** Runs {@code SELECT count(*) ... WHERE where}; checks the plan, the partitions opened and the count. */
  private static void check(Table t, SluiceSql sql, Opened opened, String where, Optional<Expression> pushed,
      Set<String> partitions, Predicate<GenericRecord> rows) {
    String query = "SELECT count(*) FROM trips WHERE " + where;
    assertEquals(pushed, sql.plan(query).get(0).filter(), query);
    opened.files.clear();
    long n = sql.query(query, rs -> {
      rs.next();
      return rs.getLong(1);
    }).orElseThrow();
    assertEquals(partitions, opened.partitions(), query + ": files opened " + opened.files);
    assertEquals(count(t, rows), n, query);
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void inListsOrsAndPrefixLikesPruneWhatTheyRuleOut(TableType type) {
    Opened opened = new Opened();
    try (Table t = write(type, opened); SluiceSql sql = SluiceSql.open(List.of(new SqlTable("trips", t)),
        SqlOptions.defaults())) {
      Set<String> all = Set.copyOf(CITIES);
      check(t, sql, opened, "city IN ('ams', 'cph')",
          Optional.of(Expressions.and(List.of(Expressions.in("city", "ams", "cph")))), Set.of("ams", "cph"),
          r -> Set.of("ams", "cph").contains(r.get("city").toString()));
      check(t, sql, opened, "(city = 'ams' OR city = 'bern') AND x > 3",
          Optional.of(Expressions.and(List.of(Expressions.or(Expressions.eq("city", "ams"),
              Expressions.eq("city", "bern")), Expressions.gt("x", 3)))), Set.of("ams", "bern"),
          r -> Set.of("ams", "bern").contains(r.get("city").toString()) && (Integer) r.get("x") > 3);
      // 'be%' is the range be <= city < bf: ber and bern, not bf
      check(t, sql, opened, "city LIKE 'be%'",
          Optional.of(Expressions.and(List.of(Expressions.and(Expressions.ge("city", "be"),
              Expressions.lt("city", "bf"))))), Set.of("ber", "bern"),
          r -> r.get("city").toString().startsWith("be"));
      // an IN over a data column goes to the scan (column statistics); every partition still has candidates
      check(t, sql, opened, "x IN (3, 14)",
          Optional.of(Expressions.and(List.of(Expressions.in("x", 3, 14)))), all,
          r -> Set.of(3, 14).contains((Integer) r.get("x")));
      // not pushed: a suffix or inner wildcard, an OR with a side the scan cannot test, NOT IN, ILIKE
      check(t, sql, opened, "city LIKE '%n'", Optional.empty(), all, r -> r.get("city").toString().endsWith("n"));
      check(t, sql, opened, "city LIKE 'b_r%'", Optional.empty(), all,
          r -> r.get("city").toString().matches("b.r.*"));
      check(t, sql, opened, "city = 'ams' OR id LIKE '%7'", Optional.empty(), all,
          r -> r.get("city").toString().equals("ams") || r.get("id").toString().endsWith("7"));
      check(t, sql, opened, "city NOT IN ('ams')", Optional.empty(), all,
          r -> !r.get("city").toString().equals("ams"));
      check(t, sql, opened, "city ILIKE 'BE%'", Optional.empty(), all,
          r -> r.get("city").toString().startsWith("be"));
    }
  }
}
