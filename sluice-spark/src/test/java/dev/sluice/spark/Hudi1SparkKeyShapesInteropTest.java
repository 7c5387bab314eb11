package dev.sluice.spark;

import static dev.sluice.spark.InteropRows.delete;
import static dev.sluice.spark.InteropRows.json;
import static dev.sluice.spark.InteropRows.rows;
import static dev.sluice.spark.InteropRows.sluiceRead;
import static dev.sluice.spark.InteropRows.upsert;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.QueryType;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.interop.HudiSpark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sluice-on-Spark beside Hudi on Spark on the key shapes the other interop tests do not write: an unpartitioned
 * Copy-on-Write table and a Merge-on-Read table with a complex record key (two fields: Hudi's
 * {@code ComplexKeyGenerator}, keys {@code id:<id>,part:<part>}), against Hudi 1.1.1 at version 9 and Hudi 0.15.0 at
 * version 6 (the same steps for each). Each writer starts one table of each shape, the other continues it (Hudi
 * upserts into Sluice-on-Spark's, Sluice-on-Spark upserts and deletes in Hudi's), and Hudi reads all four at the
 * end with Sluice's rows. Two oracle starts per release.
 */
class Hudi1SparkKeyShapesInteropTest {
  @TempDir
  Path dir;

  private static Map<String, String> shape(String shape, int version) {
    Map<String, String> o = new HashMap<>(Map.of("hoodie.table.name", "trips",
        "hoodie.datasource.write.precombine.field", "ts", "hoodie.write.table.version", String.valueOf(version)));
    if (shape.equals("unpartitioned")) {
      o.put("hoodie.datasource.write.recordkey.field", "id");
      o.put("hoodie.datasource.write.table.type", TableType.COPY_ON_WRITE.name());
      o.put("hoodie.datasource.write.partitionpath.field", "");
    } else {
      o.put("hoodie.datasource.write.recordkey.field", "id,part");
      o.put("hoodie.datasource.write.partitionpath.field", "part");
      o.put("hoodie.datasource.write.table.type", TableType.MERGE_ON_READ.name());
    }
    return o;
  }

  @ParameterizedTest
  @CsvSource({"1.1.1, 9", "0.15.0, 6"})
  void eachContinuesTheOthersUnpartitionedAndComplexKeyTables(String hudiVersion, int version) {
    SparkSession spark = LocalSpark.builder("sluice-hudi1-key-shapes-test").getOrCreate();
    try {
      HudiSpark hudi = HudiSpark.locate(hudiVersion);
      Map<String, Map<String, String>> expected = new TreeMap<>();
      List<List<String>> hudiWrites = new ArrayList<>();
      for (String shape : List.of("unpartitioned", "complex")) {
        Map<String, String> model = new TreeMap<>();
        Path table = dir.resolve("hudi-" + shape);
        hudiWrites.add(hudi.writeCommand(table, "insert", json(upsert(model, rows(0, 60, 1, "h1"))),
            InteropRows.DDL, shape(shape, version), dir));
        hudiWrites.add(hudi.writeCommand(table, "upsert", json(upsert(model, rows(40, 40, 2, "h2"))),
            InteropRows.DDL, shape(shape, version), dir));
        expected.put("hudi-" + shape, model);
      }
      hudi.batch(hudiWrites, dir);

      for (String shape : List.of("unpartitioned", "complex")) {
        Path table = dir.resolve("hudi-" + shape);
        Map<String, String> model = expected.get("hudi-" + shape);
        assertEquals(model, sluiceRead(table, QueryType.SNAPSHOT), shape + ": Sluice reads Hudi's table");
        SluiceSpark.upsert(df(spark, upsert(model, rows(50, 50, 3, "s"))), table.toString(), shape(shape, version));
        SluiceSpark.delete(df(spark, delete(model, rows(0, 10, 4, "gone"))), table.toString(), shape(shape, version));
        assertEquals(model, sluiceRead(table, QueryType.SNAPSHOT), shape + ": Sluice continues Hudi's table");

        Path mine = dir.resolve("sluice-" + shape);
        Map<String, String> ours = new TreeMap<>();
        SluiceSpark.insert(df(spark, upsert(ours, rows(0, 60, 1, "i"))), mine.toString(), shape(shape, version));
        SluiceSpark.upsert(df(spark, upsert(ours, rows(40, 40, 2, "u"))), mine.toString(), shape(shape, version));
        SluiceSpark.delete(df(spark, delete(ours, rows(0, 5, 3, "gone"))), mine.toString(), shape(shape, version));
        assertEquals(ours, sluiceRead(mine, QueryType.SNAPSHOT), shape);
        expected.put("sluice-" + shape, ours);
      }

      List<List<String>> commands = new ArrayList<>();
      List<String> labels = new ArrayList<>();
      for (String shape : List.of("unpartitioned", "complex")) {
        commands.add(new HudiSpark.Read(dir.resolve("hudi-" + shape), "snapshot", Map.of()).args());
        labels.add("hudi-" + shape);
        commands.add(new HudiSpark.Read(dir.resolve("sluice-" + shape), "snapshot", Map.of()).args());
        labels.add("sluice-" + shape);
        Map<String, String> after = new TreeMap<>(expected.get("sluice-" + shape));
        commands.add(hudi.writeCommand(dir.resolve("sluice-" + shape), "upsert",
            json(upsert(after, rows(70, 30, 5, "h"))), InteropRows.DDL, shape(shape, version), dir));
        labels.add("write");
        commands.add(new HudiSpark.Read(dir.resolve("sluice-" + shape), "snapshot", Map.of()).args());
        labels.add("sluice-" + shape + "/after-hudi");
        expected.put("sluice-" + shape + "/after-hudi", after);
      }
      List<List<Map<String, Object>>> out = hudi.batch(commands, dir);
      for (int i = 0; i < labels.size(); i++) {
        String label = labels.get(i);
        if (!label.equals("write")) {
          assertEquals(expected.get(label), InteropRows.byKey(out.get(i)), "Hudi " + hudiVersion + " reads " + label);
        }
      }
      for (String shape : List.of("unpartitioned", "complex")) {
        assertEquals(version, Tables.open(dir.resolve("sluice-" + shape).toString()).tableVersion());
        assertEquals(version, Tables.open(dir.resolve("hudi-" + shape).toString()).tableVersion());
        assertEquals(expected.get("sluice-" + shape + "/after-hudi"),
            sluiceRead(dir.resolve("sluice-" + shape), QueryType.SNAPSHOT), shape + ": Sluice reads Hudi's upsert");
      }
    } finally {
      spark.stop();
    }
  }

  private static Dataset<Row> df(SparkSession spark, List<Row> rows) {
    return spark.createDataFrame(rows, InteropRows.SCHEMA);
  }
}
