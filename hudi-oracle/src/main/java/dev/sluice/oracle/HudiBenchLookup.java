package dev.sluice.oracle;

import dev.sluice.bench.steps.Engine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.common.data.HoodieListData;
import org.apache.hudi.common.model.EmptyHoodieRecordPayload;
import org.apache.hudi.common.model.HoodieAvroRecord;
import org.apache.hudi.common.model.HoodieBaseFile;
import org.apache.hudi.common.model.HoodieKey;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.table.HoodieJavaTable;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;

/**
 * Point lookups with Hudi: the table's BLOOM index tags the key ({@code HoodieIndex.tagLocation}: key ranges,
 * bloom filters, key check), then the located base file is read for the row. Hudi's own Parquet reader has no key
 * lookup for Parquet files, so the row is read with parquet-avro and a record-key predicate (row-group and page
 * statistics skip most of the file): the most a Java-client user can do, charitable to Hudi.
 */
final class HudiBenchLookup implements Engine.KeyLookup {
  private final HoodieJavaEngineContext context;
  private final HoodieJavaTable<?> table;
  private final Configuration hadoopConf = HudiEnv.hadoopConf();
  private long dataFiles;

  HudiBenchLookup(HoodieWriteConfig config, HoodieJavaEngineContext context) {
    this.context = context;
    this.table = HoodieJavaTable.create(config, context);
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public boolean find(String key, String partition) {
    HoodieKey hoodieKey = new HoodieKey(key, partition);
    HoodieRecord record = new HoodieAvroRecord<>(hoodieKey, new EmptyHoodieRecordPayload());
    List<HoodieRecord> tagged = table.getIndex()
        .tagLocation(HoodieListData.eager(List.of(record)), context, table).collectAsList();
    HoodieRecord t = tagged.get(0);
    if (!t.isCurrentLocationKnown()) {
      return false;
    }
    Option<HoodieBaseFile> base = table.getBaseFileOnlyView().getLatestBaseFile(partition,
        t.getCurrentLocation().getFileId());
    if (!base.isPresent()) {
      return false;
    }
    dataFiles++;
    FilterCompat.Filter filter = FilterCompat.get(
        FilterApi.eq(FilterApi.binaryColumn(HoodieRecord.RECORD_KEY_METADATA_FIELD), Binary.fromString(key)));
    try (ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(
        HadoopInputFile.fromPath(new Path(base.get().getPath()), hadoopConf)).withFilter(filter).build()) {
      GenericRecord row;
      while ((row = reader.read()) != null) {
        if (key.equals(row.get(HoodieRecord.RECORD_KEY_METADATA_FIELD).toString())) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + base.get().getPath(), e);
    }
  }

  @Override
  public long indexFilesOpened() {
    return -1;
  }

  @Override
  public long dataFilesOpened() {
    return dataFiles;
  }

  @Override
  public void close() {
    // nothing to release: the table's file-system view lives in memory
  }
}
