package dev.sluice.internal.basefile;

import dev.sluice.internal.basefile.encode.ColumnChunkStore;
import dev.sluice.internal.bloom.BloomFilter;
import dev.sluice.internal.bloom.BloomFilters;
import dev.sluice.internal.error.Errors;
import dev.sluice.storage.Storage;
import dev.sluice.internal.util.KillPoints;
import java.io.Closeable;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroSchemaConverter;
import org.apache.parquet.avro.AvroWriteSupport;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes one Parquet base file the way Hudi 0.15's Avro writer does: parquet-avro encoding of records that already
 * carry the meta fields, and a footer with the bloom filter and min/max record keys of every row.
 *
 * <p>Row groups are cut by buffered size as Parquet's own writer does; this class drives Parquet's file and column
 * writers itself so the footer metadata, known only at the end, goes into the footer without Hadoop classes.
 * Not thread-safe. After a failed {@link #write} the writer can only be closed; the partial file stays (markers
 * and rollback clean it up).
 */
public final class BaseFileWriter implements Closeable {
  private static final int ESTIMATE_EVERY = 512;
  private final String path;
  private final Schema schema;
  private final int keyField;
  private BloomFilter bloom;
  /** The bloom filter holds the keys of the file this one rewrites ({@link #continueBloom}). */
  private boolean bloomHasOldKeys;
  private final long rowGroupSize;
  private final MessageType parquetSchema;
  private final ParquetProperties props;
  private final AvroWriteSupport<GenericRecord> writeSupport;
  /** Writes records straight into the column writers when it can (null: through parquet-avro's consumer). */
  private final RowShredder shredder;
  private final Map<String, String> initMetadata;
  private final CompressionCodecFactory codecs;
  private final CompressionCodecFactory.BytesInputCompressor compressor;
  private final ParquetFileWriter fileWriter;
  /** False for the Parquet file of a log block: Hudi writes it without bloom filter and min/max keys. */
  private final boolean keyFooter;
  /** Sluice's column encoder ({@link ColumnChunkStore}) rather than Parquet's column writers. */
  private final boolean sluicePages;

  private ColumnChunkPageWriteStore pageStore;
  private ColumnWriteStore columnStore;
  private RecordConsumer consumer;
  private long groupRecords;
  private long rowGroupsStarted;
  private long nextMemCheck;
  private long nextRowGroupSize;
  private long recordCount;
  private String minKey;
  private String maxKey;
  /**
   * Record schema instances already seen to equal {@link #schema}: records share a few instances (a merge writes
   * rows read from the old file and new rows, alternately), and a deep equality check per row is costly.
   */
  private final Schema[] checkedSchemas = new Schema[4];
  /** Records written when {@link #bufferedEstimate} was taken. */
  private long estimatedAt = -1;
  private long bufferedEstimate;
  private long estimatedGroupRecords;
  private boolean failed;
  private boolean finished;
  private boolean closed;

  private BaseFileWriter(String path, Schema schema, int keyField, BloomFilter bloom, long rowGroupSize,
      MessageType parquetSchema, ParquetProperties props, AvroWriteSupport<GenericRecord> writeSupport,
      RowShredder shredder, Map<String, String> initMetadata, CompressionCodecFactory codecs,
      CompressionCodecFactory.BytesInputCompressor compressor,
      ParquetFileWriter fileWriter, boolean keyFooter, boolean sluicePages) {
    this.keyFooter = keyFooter;
    this.sluicePages = sluicePages && ColumnChunkStore.supports(parquetSchema);
    this.path = path;
    this.schema = schema;
    this.checkedSchemas[0] = schema;
    this.keyField = keyField;
    this.bloom = bloom;
    this.rowGroupSize = rowGroupSize;
    this.nextRowGroupSize = rowGroupSize;
    this.parquetSchema = parquetSchema;
    this.props = props;
    this.writeSupport = writeSupport;
    this.shredder = shredder;
    this.initMetadata = initMetadata;
    this.codecs = codecs;
    this.compressor = compressor;
    this.fileWriter = fileWriter;
    this.nextMemCheck = props.getMinRowCountForPageSizeCheck();
  }

  /**
   * Creates the file at {@code path} (it must not exist) and prepares to write records of {@code schemaWithMeta},
   * a schema that starts with the meta fields ({@link MetaFields#withMetaFields}).
   */
  public static BaseFileWriter open(Storage storage, String path, Schema schemaWithMeta,
      BaseFileWriterOptions options) {
    return open(storage, path, schemaWithMeta, options, true);
  }

  /**
   * As {@link #open(Storage, String, Schema, BaseFileWriterOptions)}; with {@code direct} false every record goes
   * through parquet-avro's write support even when {@link RowShredder} could write it (tests compare the two).
   */
  static BaseFileWriter open(Storage storage, String path, Schema schemaWithMeta, BaseFileWriterOptions options,
      boolean direct) {
    return open(new StorageOutputFile(storage, path), path, schemaWithMeta, options, direct, true, PageEncoder.SLUICE);
  }

  /** Which column encoder writes the pages: Sluice's, or Parquet's column writers (tests compare the two). */
  enum PageEncoder {
    SLUICE,
    PARQUET
  }

  /** As {@link #open(Storage, String, Schema, BaseFileWriterOptions, boolean)}, with the pages from {@code encoder}. */
  static BaseFileWriter open(Storage storage, String path, Schema schemaWithMeta, BaseFileWriterOptions options,
      boolean direct, PageEncoder encoder) {
    return open(new StorageOutputFile(storage, path), path, schemaWithMeta, options, direct, true, encoder);
  }

  /**
   * A writer of the Parquet file held by a MoR log block ({@code PARQUET_DATA_BLOCK}) into {@code out}, named
   * {@code label} in messages. Hudi 0.15 writes that file with parquet-avro and no bloom filter or min/max record
   * keys in its footer (its stream writer turns the bloom filter off), so neither is written here.
   */
  public static BaseFileWriter openLogBlock(OutputFile out, String label, Schema schemaWithMeta,
      BaseFileWriterOptions options) {
    return open(out, label, schemaWithMeta, options, true, false, PageEncoder.SLUICE);
  }

  /**
   * A writer of a Parquet file of plain Avro records of {@code schema} (no meta fields), with a footer of only the
   * Avro schema and writer model, as Hudi's Avro Parquet writer writes with meta fields off (Hudi 1.x's archived
   * timeline files). {@code keyField} names the string field that identifies a row in messages; every row must
   * have it.
   */
  public static BaseFileWriter openPlain(Storage storage, String path, Schema schema, String keyField,
      BaseFileWriterOptions options) {
    return open(new StorageOutputFile(storage, path), path, schema, keyField, options, true, false,
        PageEncoder.SLUICE);
  }

  private static BaseFileWriter open(OutputFile out, String path, Schema schemaWithMeta, BaseFileWriterOptions options,
      boolean direct, boolean keyFooter, PageEncoder encoder) {
    return open(out, path, schemaWithMeta, MetaFields.RECORD_KEY, options, direct, keyFooter, encoder);
  }

  private static BaseFileWriter open(OutputFile out, String path, Schema schemaWithMeta, String keyField,
      BaseFileWriterOptions options, boolean direct, boolean keyFooter, PageEncoder encoder) {
    Schema.Field key = schemaWithMeta.getType() == Schema.Type.RECORD
        ? schemaWithMeta.getField(keyField) : null;
    if (key == null) {
      throw Errors.internal("base file schema for " + path + " has no " + keyField
          + " field; add the meta fields first", null);
    }
    ParquetConfiguration conf = ParquetSettings.writeConf();
    MessageType parquetSchema = new AvroSchemaConverter(conf).convert(schemaWithMeta);
    AvroWriteSupport<GenericRecord> support = new AvroWriteSupport<>(parquetSchema, schemaWithMeta,
        ParquetSettings.writeModel());
    WriteSupport.WriteContext context = support.init(conf);
    ParquetProperties.Builder propsBuilder = ParquetProperties.builder()
        .withPageSize(options.pageSize())
        .withDictionaryPageSize(options.pageSize())
        .withDictionaryEncoding(options.dictionary())
        .withWriterVersion(ParquetWriter.DEFAULT_WRITER_VERSION)
        // Sluice's encoder keeps none, and Hudi 0.15's Parquet writes none: off for Parquet's writers too
        .withSizeStatisticsEnabled(false);
    // Unique in every file by construction: a dictionary would only be built to be thrown away at the first page
    // (Parquet falls back to plain encoding), so these are written plain from the start, as they end up anyway.
    for (String unique : MetaFields.UNIQUE_PER_ROW) {
      propsBuilder.withDictionaryEncoding(unique, false);
    }
    for (String plain : options.plainColumns()) {
      propsBuilder.withDictionaryEncoding(plain, false);
    }
    ParquetProperties props = propsBuilder.build();
    BloomFilter bloom = BloomFilters.create(options.bloomType(), options.bloomNumEntries(), options.bloomFpp(),
        options.bloomMaxEntries());
    CompressionCodecFactory codecs = new PageCodecs(conf, props.getPageSizeThreshold());
    ParquetFileWriter fileWriter = null;
    KillPoints.reach("basefile.create.before");
    try {
      CompressionCodecFactory.BytesInputCompressor compressor =
          codecs.getCompressor(ParquetSettings.codec(options.codec()));
      fileWriter = new ParquetFileWriter(out, context.getSchema(),
          ParquetFileWriter.Mode.CREATE, options.rowGroupSize(), ParquetWriter.MAX_PADDING_SIZE_DEFAULT, null, props);
      fileWriter.start();
      RowShredder shredder = direct
          ? RowShredder.compile(schemaWithMeta, context.getSchema(), ParquetSettings.writeModel()).orElse(null) : null;
      BaseFileWriter w = new BaseFileWriter(path, schemaWithMeta, key.pos(), bloom, options.rowGroupSize(),
          context.getSchema(), props, support, shredder, context.getExtraMetaData(), codecs, compressor, fileWriter, keyFooter,
          encoder == PageEncoder.SLUICE);
      w.startRowGroup();
      KillPoints.reach("basefile.create.after");
      return w;
    } catch (IOException e) {
      release(fileWriter, codecs);
      throw Errors.storage("create base file", path, e);
    } catch (RuntimeException e) {
      release(fileWriter, codecs);
      throw e;
    }
  }

  private static void release(ParquetFileWriter fileWriter, CompressionCodecFactory codecs) {
    try {
      if (fileWriter != null) {
        fileWriter.close();
      }
    } catch (IOException e) {
      // already failing: the first error is the one to report, the stream is abandoned
      return;
    } finally {
      codecs.release();
    }
  }

  private void startRowGroup() {
    pageStore = new ColumnChunkPageWriteStore(compressor, parquetSchema, props.getAllocator(),
        props.getColumnIndexTruncateLength(), props.getPageWriteChecksumEnabled());
    columnStore = sluicePages ? new ColumnChunkStore(parquetSchema, pageStore, props)
        : props.newColumnWriteStore(parquetSchema, pageStore, pageStore);
    MessageColumnIO io = new ColumnIOFactory(false).getColumnIO(parquetSchema);
    consumer = io.getRecordWriter(columnStore);
    writeSupport.prepareForWrite(consumer);
    if (shredder != null) {
      shredder.bind(columnStore);
    }
    groupRecords = 0;
    rowGroupsStarted++;
  }

  /**
   * Starts this file's bloom filter from {@code old}, the filter of the file this one rewrites ({@code oldRows}
   * rows), when {@link BloomFilters#continuing} allows; true if it did. Rows copied from that file and records
   * written with {@link #writeReplacing} then skip hashing their keys into the filter, which holds them already;
   * new keys are added as before. Only before the first row.
   */
  public boolean continueBloom(BloomFilter old, long oldRows) {
    if (recordCount > 0 || bloomHasOldKeys) {
      throw Errors.internal("bloom filter of " + path + " continued after rows were written", null);
    }
    Optional<BloomFilter> continued = BloomFilters.continuing(old, bloom, oldRows);
    continued.ifPresent(b -> {
      bloom = b;
      bloomHasOldKeys = true;
    });
    return bloomHasOldKeys;
  }

  /**
   * Appends one record; its meta fields must be filled. The record key goes into the bloom filter and the
   * min/max key range.
   */
  public void write(GenericRecord recordWithMetaFields) {
    write(recordWithMetaFields, false);
  }

  /**
   * As {@link #write}, for a record whose key a row of the rewritten file had (an update, or a row carried over as
   * a record): with a {@linkplain #continueBloom continued} filter the key is not hashed again.
   */
  public void writeReplacing(GenericRecord recordWithMetaFields) {
    write(recordWithMetaFields, true);
  }

  private void write(GenericRecord recordWithMetaFields, boolean oldKey) {
    if (failed || finished || closed) {
      throw Errors.internal("write to base file " + path + " after it was "
          + (failed ? "failed" : finished ? "finished" : "closed"), null);
    }
    Schema rs = recordWithMetaFields.getSchema();
    if (!isChecked(rs)) {
      // fields are written by position: a record of another schema would land in the wrong columns
      if (!rs.equals(schema)) {
        throw Errors.internal("record " + (recordCount + 1) + " for " + path + " has schema " + rs.getFullName()
            + " which differs from the file's schema", null);
      }
      remember(rs);
    }
    Object k = recordWithMetaFields.get(keyField);
    if (k == null) {
      throw Errors.internal("record " + (recordCount + 1) + " for " + path + " has no "
          + schema.getFields().get(keyField).name(), null);
    }
    String key = k.toString();
    try {
      if (shredder != null) {
        shredder.write(recordWithMetaFields, columnStore);
      } else {
        writeSupport.write(recordWithMetaFields);
      }
    } catch (RuntimeException e) {
      // the row may be half in the column buffers: this file cannot be finished
      failed = true;
      throw Errors.badInput("record " + (recordCount + 1) + " (key '" + key + "') written to " + path,
          "does not match the table schema: " + e.getMessage(), e);
    }
    afterRow(key, oldKey);
  }

  /** The column writers of the current row group for {@link RowCopier}; null while rows go through parquet-avro. */
  ColumnWriteStore directColumns() {
    if (failed || finished || closed) {
      throw Errors.internal("copy into base file " + path + " after it was "
          + (failed ? "failed" : finished ? "finished" : "closed"), null);
    }
    return shredder == null ? null : columnStore;
  }

  /** The Parquet schema rows are written in. */
  MessageType parquetSchema() {
    return parquetSchema;
  }

  /** Row groups started so far: {@link RowCopier} re-binds its column writers when this changes. */
  long rowGroupsStarted() {
    return rowGroupsStarted;
  }

  /** Marks the file failed: a copy stopped halfway through a row. */
  void fail() {
    failed = true;
  }

  /** Ends a row {@link RowCopier} wrote into {@link #directColumns()}, whose record key is {@code key}. */
  void endCopiedRow(String key) {
    columnStore.endRecord();
    afterRow(key, true);
  }

  private void afterRow(String key, boolean oldKey) {
    if (keyFooter && !(oldKey && bloomHasOldKeys)) {
      bloom.add(key);
    }
    if (minKey == null || key.compareTo(minKey) < 0) {
      minKey = key;
    }
    if (maxKey == null || key.compareTo(maxKey) > 0) {
      maxKey = key;
    }
    recordCount++;
    groupRecords++;
    try {
      maybeFlushRowGroup();
    } catch (IOException e) {
      failed = true;
      throw Errors.storage("write base file", path, e);
    }
  }

  private boolean isChecked(Schema s) {
    for (Schema c : checkedSchemas) {
      if (c == s) {
        return true;
      }
    }
    return false;
  }

  private void remember(Schema s) {
    for (int i = 0; i < checkedSchemas.length; i++) {
      if (checkedSchemas[i] == null) {
        checkedSchemas[i] = s;
        return;
      }
    }
    checkedSchemas[checkedSchemas.length - 1] = s;
  }

  /** Parquet's own row group policy: check the buffered size now and then, cut ~2 records before the limit. */
  private void maybeFlushRowGroup() throws IOException {
    if (groupRecords >= props.getRowGroupRowCountLimit()) {
      flushAndRestart();
    } else if (groupRecords >= nextMemCheck) {
      long memSize = columnStore.getBufferedSize();
      long recordSize = memSize / groupRecords;
      if (memSize > nextRowGroupSize - 2 * recordSize) {
        flushAndRestart();
      } else {
        nextMemCheck = Math.min(
            Math.max(props.getMinRowCountForPageSizeCheck(),
                (groupRecords + (long) (nextRowGroupSize / (float) Math.max(recordSize, 1))) / 2),
            groupRecords + props.getMaxRowCountForPageSizeCheck());
      }
    }
  }

  private void flushAndRestart() throws IOException {
    long records = groupRecords;
    flushRowGroup();
    startRowGroup();
    nextMemCheck = Math.min(Math.max(props.getMinRowCountForPageSizeCheck(), records / 2),
        props.getMaxRowCountForPageSizeCheck());
  }

  private void flushRowGroup() throws IOException {
    try {
      consumer.flush();
      if (groupRecords > 0) {
        fileWriter.startBlock(groupRecords);
        columnStore.flush();
        pageStore.flushToFileWriter(fileWriter);
        fileWriter.endBlock();
        nextRowGroupSize = Math.min(fileWriter.getNextRowGroupSize(), rowGroupSize);
      }
    } finally {
      releaseRowGroup();
    }
  }

  private void releaseRowGroup() {
    ColumnWriteStore columns = columnStore;
    ColumnChunkPageWriteStore pagesToFree = pageStore;
    columnStore = null;
    pageStore = null;
    groupRecords = 0;
    estimatedAt = -1;
    try {
      // closing a column store flushes it, which fails on a half-written row: then its heap buffers are just dropped
      if (columns != null && !failed) {
        columns.close();
      }
    } finally {
      if (pagesToFree != null) {
        pagesToFree.close();
      }
    }
  }

  /** Records written so far. */
  public long recordCount() {
    return recordCount;
  }

  /**
   * Bytes written so far plus bytes buffered for the current row group (before the footer). Callers ask after
   * every record; summing the column buffers walks every column, so the buffered part is re-measured every
   * {@value #ESTIMATE_EVERY} records and extrapolated in between (a few KB of error against file targets of
   * megabytes).
   */
  public long estimatedBytes() {
    try {
      long since = recordCount - estimatedAt;
      if (estimatedAt < 0 || since < 0 || since >= ESTIMATE_EVERY || groupRecords < ESTIMATE_EVERY) {
        bufferedEstimate = columnStore == null ? 0 : columnStore.getBufferedSize();
        estimatedAt = recordCount;
        estimatedGroupRecords = groupRecords;
        since = 0;
      }
      // records since the last measurement count at the row group's average buffered size so far
      long perRecord = estimatedGroupRecords > 0 ? bufferedEstimate / estimatedGroupRecords : 0;
      return fileWriter.getPos() + bufferedEstimate + since * perRecord;
    } catch (IOException e) {
      throw Errors.storage("write base file", path, e);
    }
  }

  /** Writes the last row group and the footer, closes the file and says what was written. */
  public WrittenFile finish() {
    if (failed || finished || closed) {
      throw Errors.internal("finish of base file " + path + " after it was "
          + (failed ? "failed" : finished ? "finished" : "closed"), null);
    }
    try {
      flushRowGroup();
      KillPoints.reach("basefile.finish.before");
      fileWriter.end(footerMetadata());
      KillPoints.reach("basefile.finish.after");
    } catch (IOException e) {
      failed = true;
      closeAfterFailure(e);
      throw Errors.storage("finish base file", path, e);
    } catch (RuntimeException e) {
      failed = true;
      closeAfterFailure(e);
      throw e;
    }
    finished = true;
    closed = true;
    codecs.release();
    try {
      return new WrittenFile(path, fileWriter.getPos(), recordCount, minKey, maxKey);
    } catch (IOException e) {
      throw Errors.storage("finish base file", path, e);
    }
  }

  /** Closes after {@code original}; a second failure is attached to it, the first is the one to report. */
  private void closeAfterFailure(Throwable original) {
    try {
      close();
    } catch (RuntimeException e) {
      original.addSuppressed(e);
    }
  }

  private Map<String, String> footerMetadata() {
    Map<String, String> m = new LinkedHashMap<>(initMetadata);
    m.put(FooterKeys.WRITER_MODEL, writeSupport.getName());
    m.putAll(writeSupport.finalizeWrite().getExtraMetaData());
    if (!keyFooter) {
      return m;
    }
    m.put(FooterKeys.BLOOM_FILTER, bloom.serialize());
    if (bloom.type().writesTypeCode()) {
      m.put(FooterKeys.BLOOM_FILTER_TYPE, bloom.type().name());
    }
    if (minKey != null) {
      m.put(FooterKeys.MIN_RECORD_KEY, minKey);
      m.put(FooterKeys.MAX_RECORD_KEY, maxKey);
    }
    return m;
  }

  /** Releases buffers and the output stream. Without {@link #finish()} the file is left incomplete. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      releaseRowGroup();
    } finally {
      try {
        fileWriter.close();
      } catch (IOException e) {
        throw Errors.storage("close base file", path, e);
      } finally {
        codecs.release();
      }
    }
  }
}
