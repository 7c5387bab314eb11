package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Scan;
import dev.sluice.api.QueryType;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The rows of the interop tests between Sluice-on-Spark and Hudi on Spark (Hudi 1.x's bundles): one table shape
 * (key {@code id}, partition {@code part} in three values, ordering {@code ts}, a {@code payload}), the rows as
 * Spark rows for Sluice-on-Spark and as JSON for Hudi's oracle, and the model of what a table must hold (key to
 * {@code part/ts/payload}), which both sides' reads are compared with.
 */
final class InteropRows {
  /** Spark's schema of the rows both writers get: nullable columns, as Hudi's Spark writer makes them from DDL. */
  static final StructType SCHEMA = new StructType()
      .add("id", DataTypes.StringType, true)
      .add("part", DataTypes.StringType, true)
      .add("ts", DataTypes.LongType, true)
      .add("payload", DataTypes.StringType, true);
  /** The same schema as the DDL Hudi's oracle reads its JSON input with. */
  static final String DDL = "id STRING, part STRING, ts BIGINT, payload STRING";

  private InteropRows() {
  }

  /** Hudi's datasource options for a table both writers share (partitioned by {@code part}). */
  static Map<String, String> options(TableType type) {
    return Map.of("hoodie.table.name", "trips", "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts", "hoodie.datasource.write.partitionpath.field", "part",
        "hoodie.datasource.write.table.type", type.name());
  }

  /** {@code n} rows from key {@code from}, in three partitions; {@code ts} grows with each write so it wins. */
  static List<Row> rows(int from, int n, long ts, String tag) {
    List<Row> out = new ArrayList<>(n);
    for (int i = from; i < from + n; i++) {
      out.add(RowFactory.create(String.format("k%06d", i), "p" + (i % 3), ts, tag + ":" + i));
    }
    return out;
  }

  /** Records {@code rows} as an upsert into {@code model}; returns them. */
  static List<Row> upsert(Map<String, String> model, List<Row> rows) {
    rows.forEach(r -> model.put(r.getString(0), r.getString(1) + "/" + r.getLong(2) + "/" + r.getString(3)));
    return rows;
  }

  /** Records {@code rows} as a delete from {@code model}; returns them. */
  static List<Row> delete(Map<String, String> model, List<Row> rows) {
    rows.forEach(r -> model.remove(r.getString(0)));
    return rows;
  }

  /** The rows as the oracle's JSON input (column name to value). */
  static List<Map<String, Object>> json(List<Row> rows) {
    List<Map<String, Object>> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", r.getString(0));
      m.put("part", r.getString(1));
      m.put("ts", r.getLong(2));
      m.put("payload", r.getString(3));
      out.add(m);
    }
    return out;
  }

  /** The table's rows as Sluice's own scan returns them ({@code query}), by key; fails on a key returned twice. */
  static Map<String, String> sluiceRead(Path table, QueryType query) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = Tables.open(table.toString()).newScan().queryType(query).open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        assertEquals(null, out.put(r.get("id").toString(), r.get("part") + "/" + r.get("ts") + "/" + r.get("payload")),
            table + ": key returned twice: " + r.get("id"));
      }
    }
    return out;
  }

  /** The rows Hudi's oracle printed, by key; fails on a key returned twice. */
  static Map<String, String> byKey(List<Map<String, Object>> rows) {
    Map<String, String> out = new TreeMap<>();
    for (Map<String, Object> r : rows) {
      assertEquals(null, out.put(r.get("id").toString(), r.get("part") + "/" + r.get("ts") + "/" + r.get("payload")),
          "Hudi returned a key twice: " + r.get("id"));
    }
    return out;
  }

  /**
   * The completed writes and compactions of a table, by completion: requested time and completion time on version
   * 8 and 9 ({@code .hoodie/timeline/<requested>_<completed>.commit}), the instant time twice on version 6
   * ({@code .hoodie/<instant>.commit}, where instants complete in the order of their times as far as a reader sees).
   */
  static List<String[]> completedInstants(Path table) {
    Path timeline = table.resolve(".hoodie/timeline");
    boolean layout1 = Files.isDirectory(timeline);
    Pattern completed = layout1 ? Pattern.compile("(\\d{17})_(\\d{17})\\.(commit|deltacommit)")
        : Pattern.compile("(\\d{17})()\\.(commit|deltacommit)");
    try (Stream<Path> files = Files.list(layout1 ? timeline : table.resolve(".hoodie"))) {
      return files.map(f -> completed.matcher(f.getFileName().toString())).filter(Matcher::matches)
          .map(m -> new String[] {m.group(1), layout1 ? m.group(2) : m.group(1)})
          .sorted(Comparator.comparing(a -> a[1])).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The rows of {@code scan} by key: commit time/part/ts/payload; fails on a key returned twice. */
  static Map<String, String> rowsWithCommitTime(Scan scan) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = scan.withMetaColumns(true).open()) {
      it.forEachRemaining(r -> assertEquals(null, out.put(r.get("id").toString(), r.get("_hoodie_commit_time") + "/"
          + r.get("part") + "/" + r.get("ts") + "/" + r.get("payload")), "key twice: " + r.get("id")));
    }
    return out;
  }

  /** The rows Hudi's oracle printed, as {@link #rowsWithCommitTime} gives Sluice's. */
  static Map<String, String> byKeyWithCommitTime(List<Map<String, Object>> rows) {
    Map<String, String> out = new TreeMap<>();
    rows.forEach(r -> assertEquals(null, out.put(r.get("id").toString(), r.get("_hoodie_commit_time") + "/"
        + r.get("part") + "/" + r.get("ts") + "/" + r.get("payload")), "Hudi returned a key twice: " + r.get("id")));
    return out;
  }

  /**
   * Hudi's incremental and time-travel queries over Sluice-on-Spark's tables return, query by query, the rows
   * Sluice's own scans return, and most of them return rows (so the comparison is not of empty results).
   */
  static void assertSameHistory(List<Map<String, String>> historySluice, List<Map<String, String>> historyRead) {
    assertEquals(historySluice.size(), historyRead.size());
    int nonEmpty = 0;
    for (int i = 0; i < historyRead.size(); i++) {
      Map<String, String> sluice = historySluice.get(i);
      assertEquals(sluice, historyRead.get(i), "query " + i + " of Sluice-on-Spark's tables' history");
      nonEmpty += sluice.isEmpty() ? 0 : 1;
    }
    assertTrue(nonEmpty > historyRead.size() / 2, "most return rows: " + nonEmpty + " of " + historyRead.size());
  }
}
