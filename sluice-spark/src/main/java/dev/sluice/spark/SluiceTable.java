package dev.sluice.spark;

import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Hudi table as Spark's DataSource V2 sees it: readable in batches ({@link SliceScanBuilder}). It does not
 * declare batch writes, so Spark saves a {@code df.write.format("sluice")} through the V1 path
 * ({@link SluiceDataSource#createRelation}), which hands the whole Dataset to {@link SluiceSpark}: an upsert must
 * tag and plan before it knows which task writes which row, which a V2 batch write cannot express.
 */
final class SluiceTable implements org.apache.spark.sql.connector.catalog.Table, SupportsRead {
  private final Map<String, String> properties;
  private StructType schema;

  SluiceTable(Map<String, String> properties) {
    this.properties = Map.copyOf(properties);
  }

  @Override
  public String name() {
    return "sluice:" + ReadOptions.of(properties).path();
  }

  /** The table's columns with the five meta columns first, read when first asked (a write never asks). */
  @Override
  public synchronized StructType schema() {
    if (schema == null) {
      try (dev.sluice.api.Table t = ReadOptions.of(properties).open()) {
        schema = SparkRows.withMeta(t.schema());
      }
    }
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.BATCH_READ);
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    Map<String, String> all = new java.util.HashMap<>(properties);
    all.putAll(options.asCaseSensitiveMap());
    return new SliceScanBuilder(ReadOptions.of(all), schema());
  }
}
