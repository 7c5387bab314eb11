package dev.sluice.internal.basefile;

import dev.sluice.internal.bloom.BloomFilter;
import dev.sluice.internal.bloom.BloomFilterType;
import dev.sluice.internal.bloom.BloomFilters;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.util.ParsedSchemas;
import dev.sluice.api.SluiceException;
import dev.sluice.storage.Storage;
import dev.sluice.api.CloseableIterator;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.avro.AvroReadSupport;
import org.apache.parquet.avro.AvroSchemaConverter;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.SchemaCompatibilityValidator;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Reads one Parquet base file. {@link #open} reads the footer once; every iterator opens its own stream, so several
 * may run at once (also from different threads). Values come back in Avro's generic form without logical type
 * conversions: strings as {@link org.apache.avro.util.Utf8}, timestamps as Long, decimals as ByteBuffer or fixed.
 */
public final class BaseFileReader implements Closeable {
  /**
   * Up to this many candidate keys, {@link #recordKeysFoundAmong} reads only the pages whose statistics admit one; with
   * more, nearly every page qualifies and the filter would only cost.
   */
  static final int KEY_FILTER_LIMIT = 64;
  /** parquet-avro's configuration key for the Avro schema records are built with. */
  private static final String AVRO_READ_SCHEMA = "parquet.avro.read.schema";

  private final String path;
  private final StorageInputFile file;
  private final ParquetMetadata parquetFooter;
  private final MessageType fileSchema;
  private final Footer footer;
  private volatile Optional<BloomFilter> bloom;

  private BaseFileReader(String path, StorageInputFile file, ParquetMetadata parquetFooter, Footer footer) {
    this.path = path;
    this.file = file;
    this.parquetFooter = parquetFooter;
    this.fileSchema = parquetFooter.getFileMetaData().getSchema();
    this.footer = footer;
  }

  /** Opens the file at {@code path} and reads its footer. */
  public static BaseFileReader open(Storage storage, String path) {
    return open(new StorageInputFile(storage, path));
  }

  /** Opens a file whose length is known (from a listing), saving one storage call. */
  public static BaseFileReader open(Storage storage, String path, long length) {
    return open(new StorageInputFile(storage, path, length));
  }

  /**
   * Opens the Parquet file held in {@code length} bytes of {@code path} from {@code offset} (a MoR log block's
   * content); {@code label} names it in messages, e.g. the log file and block offset.
   */
  public static BaseFileReader openRange(Storage storage, String path, long offset, long length, String label) {
    return open(StorageInputFile.range(storage, path, offset, length), label);
  }

  private static BaseFileReader open(StorageInputFile file) {
    return open(file, file.path());
  }

  private static BaseFileReader open(StorageInputFile file, String path) {
    ParquetMetadata meta;
    try (ParquetFileReader r = ParquetFileReader.open(file, options(FilterCompat.NOOP))) {
      meta = r.getFooter();
    } catch (IOException | RuntimeException e) {
      throw readError(path, e);
    }
    Map<String, String> kv = meta.getFileMetaData().getKeyValueMetaData();
    Schema schema = avroSchema(path, kv, meta.getFileMetaData().getSchema());
    long rows = 0;
    for (BlockMetaData b : meta.getBlocks()) {
      rows += b.getRowCount();
    }
    Footer footer = new Footer(schema, rows, Optional.ofNullable(kv.get(FooterKeys.MIN_RECORD_KEY)),
        Optional.ofNullable(kv.get(FooterKeys.MAX_RECORD_KEY)), kv);
    return new BaseFileReader(path, file, meta, footer);
  }

  private static Schema avroSchema(String path, Map<String, String> kv, MessageType parquet) {
    String json = kv.get(FooterKeys.AVRO_SCHEMA);
    if (json == null) {
      json = kv.get(FooterKeys.OLD_AVRO_SCHEMA);
    }
    try {
      if (json != null) {
        return ParsedSchemas.parseLenient(json);
      }
      // files from non-Avro writers (e.g. Spark's row writer) carry only the Parquet schema
      return new AvroSchemaConverter(ParquetSettings.readConf()).convert(parquet);
    } catch (SchemaParseException | IllegalArgumentException e) {
      throw Errors.badTable(path, "has an unreadable Avro schema in its footer: " + e.getMessage(),
          "The file was not written by a Hudi-compatible writer; restore it from a copy (if the commit that wrote it is the "
              + "latest, 'sluice rollback TABLE INSTANT' undoes that commit).",
          e);
    }
  }

  private static ParquetReadOptions options(FilterCompat.Filter filter) {
    // a fresh codec factory per reader: ParquetFileReader.close() releases it
    ParquetConfiguration conf = ParquetSettings.readConf();
    return ParquetReadOptions.builder(conf).withRecordFilter(filter).withCodecFactory(new PageCodecs(conf, 0)).build();
  }

  /** The path this reader reads. */
  public String path() {
    return path;
  }

  /** What the footer says. */
  public Footer footer() {
    return footer;
  }

  /**
   * Dotted paths of the leaf columns written without a dictionary in every row group (Parquet abandoned it, or it
   * was off); {@link DictionaryChoice} writes them plain in a rewrite of this file.
   */
  public Set<String> columnsWithoutDictionary() {
    return DictionaryChoice.plainColumns(parquetFooter);
  }

  /**
   * The bloom filter of the footer ({@code org.apache.hudi.bloomfilter}, or the legacy
   * {@code com.uber.hoodie.bloomfilter}), decoded on first use; empty if the file has none.
   */
  public Optional<BloomFilter> bloomFilter() {
    Optional<BloomFilter> b = bloom;
    if (b == null) {
      synchronized (this) {
        b = bloom;
        if (b == null) {
          b = decodeBloom();
          bloom = b;
        }
      }
    }
    return b;
  }

  private Optional<BloomFilter> decodeBloom() {
    Map<String, String> kv = footer.keyValueMetadata();
    String value = kv.get(FooterKeys.BLOOM_FILTER);
    if (value == null) {
      value = kv.get(FooterKeys.OLD_BLOOM_FILTER);
    }
    if (value == null) {
      return Optional.empty();
    }
    String typeName = kv.get(FooterKeys.BLOOM_FILTER_TYPE);
    try {
      BloomFilterType type = typeName == null ? BloomFilterType.SIMPLE : BloomFilterType.fromName(typeName);
      return Optional.of(BloomFilters.deserialize(value, type));
    } catch (IllegalArgumentException e) {
      throw Errors.badTable(path, "has a damaged bloom filter in its footer: " + e.getMessage(),
          "Switch to the SIMPLE index for this table, or restore the file from a copy (if the commit that wrote it is the "
              + "latest, 'sluice rollback TABLE INSTANT' undoes that commit).", e);
    }
  }

  /** All rows, decoding only the columns of {@code projection} (top-level fields matched by name). */
  public CloseableIterator<GenericRecord> read(Schema projection) {
    return read(projection, FilterCompat.NOOP);
  }

  /**
   * The rows that pass {@code filter}, decoding only the columns of {@code projection}. Row groups whose statistics
   * or dictionaries rule the filter out are not read at all; the rest are filtered row by row. The filter may use
   * columns outside the projection.
   */
  public CloseableIterator<GenericRecord> read(Schema projection, FilterCompat.Filter filter) {
    return read(projection, filter, true);
  }

  /**
   * All rows, decoding only the columns of {@code projection}, as {@link WideRow}s that show {@code visible}:
   * {@code projection}'s first fields are {@code visible}'s (same names, order and schemas), the rest are read for
   * the caller's own use (by position) and hidden from anyone else. Where Sluice's own assembler cannot read the
   * file's layout, the rows are plain records of {@code projection}.
   */
  public CloseableIterator<GenericRecord> readShowing(Schema projection, Schema visible) {
    String missing = Projection.missingField(projection, fileSchema);
    if (missing == null) {
      MessageType requested = Projection.requested(fileSchema, projection);
      Optional<RowAssembler> assembler = RowAssembler.compile(projection, requested, Optional.of(visible));
      if (assembler.isPresent()) {
        ParquetFileReader reader = openReader(FilterCompat.NOOP);
        try {
          return assembler.get().read(reader, parquetFooter.getFileMetaData().getCreatedBy(), Function.identity(),
              e -> readError(path, e));
        } catch (RuntimeException e) {
          closeQuietly(reader, e);
          throw e instanceof SluiceException ? e : readError(path, e);
        }
      }
    }
    return read(projection);
  }

  /** As {@link #read(Schema, FilterCompat.Filter)}; {@code direct} false always reads through parquet-avro (tests). */
  CloseableIterator<GenericRecord> read(Schema projection, FilterCompat.Filter filter, boolean direct) {
    if (projection.getType() != Schema.Type.RECORD) {
      throw Errors.badRequest("Reading " + path, "the read schema is a " + projection.getType()
          + ", not a record", "Pass the table's record schema or a subset of its fields.");
    }
    String missing = Projection.missingField(projection, fileSchema);
    if (missing != null) {
      throw Errors.badRequest("Reading " + path, "the read schema asks for field '" + missing
          + "', which the file does not have", "Read with a schema whose fields are all in the file.");
    }
    if (filter instanceof FilterCompat.FilterPredicateCompat p) {
      try {
        SchemaCompatibilityValidator.validate(p.getFilterPredicate(), fileSchema);
      } catch (IllegalArgumentException e) {
        throw Errors.badRequest("Filtering " + path, e.getMessage(),
            "Use a filter whose column types match the file's columns.");
      }
    }
    Schema readSchema = withFilterFields(projection, FilterColumns.of(filter));
    Function<GenericRecord, GenericRecord> finish = readSchema == projection
        ? Function.identity() : r -> narrow(r, projection);
    MessageType requested = Projection.requested(fileSchema, readSchema);
    if (direct && filter instanceof FilterCompat.NoOpFilter) {
      // no record filter: rows are assembled straight from the column readers when the layout allows
      Optional<RowAssembler> assembler = RowAssembler.compile(readSchema, requested);
      if (assembler.isPresent()) {
        ParquetFileReader reader = openReader(filter);
        try {
          return assembler.get().read(reader, parquetFooter.getFileMetaData().getCreatedBy(), finish,
              e -> readError(path, e));
        } catch (RuntimeException e) {
          closeQuietly(reader, e);
          throw e instanceof SluiceException ? e : readError(path, e);
        }
      }
    }
    ParquetConfiguration conf = ParquetSettings.readConf();
    conf.set(AVRO_READ_SCHEMA, readSchema.toString());
    conf.setBoolean(AvroReadSupport.AVRO_COMPATIBILITY, false);
    Map<String, String> kv = parquetFooter.getFileMetaData().getKeyValueMetaData();
    ParquetFileReader reader = openReader(filter);
    try {
      AvroReadSupport<GenericRecord> support = new AvroReadSupport<>(GenericData.get());
      ReadSupport.ReadContext init = support.init(conf, kv, fileSchema);
      RecordMaterializer<GenericRecord> materializer = support.prepareForRead(conf, kv, fileSchema,
          new ReadSupport.ReadContext(requested, init.getReadSupportMetadata()));
      reader.setRequestedSchema(requested);
      MessageColumnIO io = new ColumnIOFactory(parquetFooter.getFileMetaData().getCreatedBy())
          .getColumnIO(requested, fileSchema, true);
      return new RecordIterator(reader, io, materializer, filter, finish, e -> readError(path, e));
    } catch (RuntimeException e) {
      closeQuietly(reader, e);
      throw e instanceof SluiceException ? e : readError(path, e);
    }
  }

  /** {@code projection} plus the file's fields that the filter needs and the projection lacks. */
  private Schema withFilterFields(Schema projection, Set<String> filterFields) {
    List<Schema.Field> extra = new ArrayList<>();
    for (String name : filterFields) {
      Schema.Field f = footer.schema().getField(name);
      if (projection.getField(name) == null && f != null) {
        extra.add(new Schema.Field(f.name(), f.schema(), f.doc(), f.defaultVal()));
      }
    }
    if (extra.isEmpty()) {
      return projection;
    }
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : projection.getFields()) {
      fields.add(new Schema.Field(f.name(), f.schema(), f.doc(), f.defaultVal()));
    }
    fields.addAll(extra);
    Schema s = Schema.createRecord(projection.getName(), projection.getDoc(), projection.getNamespace(), false);
    s.setFields(fields);
    return s;
  }

  private static GenericRecord narrow(GenericRecord wide, Schema projection) {
    GenericData.Record r = new GenericData.Record(projection);
    for (Schema.Field f : projection.getFields()) {
      r.put(f.pos(), wide.get(f.name()));
    }
    return r;
  }

  /**
   * The {@code _hoodie_record_key} of every row, reading only that column (rows without a key are skipped). This
   * is the exact-check step of bloom index tagging.
   */
  public CloseableIterator<String> recordKeys() {
    MessageType keys = stringColumns(MetaFields.RECORD_KEY);
    return new KeyColumnsIterator<>(openReader(FilterCompat.NOOP), keys,
        parquetFooter.getFileMetaData().getCreatedBy(), row -> row[0], e -> readError(path, e));
  }

  /**
   * The row whose record key is {@code key} in {@code projection}, if this file holds it: the point lookup. Reads
   * the key column of the row groups whose key statistics admit the key, then from each column only the pages that
   * hold the row. Files whose key column has other encodings or that lack offset indexes are read with a record
   * filter on the key instead.
   */
  public Optional<GenericRecord> rowWithKey(String key, Schema projection) {
    String missing = Projection.missingField(projection, fileSchema);
    if (projection.getType() != Schema.Type.RECORD || missing != null) {
      throw Errors.badRequest("Looking up a key in " + path, "the read schema is not a record of the file's fields",
          "Pass the table's record schema or a subset of its fields.");
    }
    MessageType requested = Projection.requested(fileSchema, projection);
    Optional<RowAssembler> assembler = RowAssembler.compile(projection, requested);
    MessageType keys = stringColumns(MetaFields.RECORD_KEY);
    if (assembler.isPresent() && KeyedRowRead.serves(parquetFooter.getBlocks(), keys.getColumns().get(0))) {
      ParquetFileReader reader = openReader(FilterCompat.NOOP);
      try (reader) {
        return KeyedRowRead.find(reader, keys, requested, assembler.get(), createdBy(), key);
      } catch (IOException | RuntimeException e) {
        throw readError(path, e);
      }
    }
    FilterCompat.Filter byKey = FilterCompat.get(
        FilterApi.eq(FilterApi.binaryColumn(MetaFields.RECORD_KEY), Binary.fromString(key)));
    try (CloseableIterator<GenericRecord> rows = read(projection, byKey)) {
      return rows.hasNext() ? Optional.of(rows.next()) : Optional.empty();
    }
  }

  /**
   * The distinct {@code candidates} this file holds a row for, in the order its rows hold them: the exact check of
   * bloom index tagging. Reads only the record key column (with few candidates, only the pages whose key statistics
   * admit one) and matches its values as bytes, building no String per row.
   */
  public List<String> recordKeysFoundAmong(List<String> candidates) {
    if (candidates.isEmpty()) {
      return List.of();
    }
    boolean filtered = candidates.size() <= KEY_FILTER_LIMIT;
    FilterCompat.Filter filter = FilterCompat.NOOP;
    if (filtered) {
      Set<Binary> wanted = new HashSet<>();
      candidates.forEach(c -> wanted.add(Binary.fromString(c)));
      filter = FilterCompat.get(FilterApi.in(FilterApi.binaryColumn(MetaFields.RECORD_KEY), wanted));
    }
    MessageType keys = stringColumns(MetaFields.RECORD_KEY);
    Utf8KeySet set = new Utf8KeySet(candidates);
    ParquetFileReader reader = openReader(filter);
    try {
      return KeyMatcher.found(reader, keys, createdBy(), set, filtered);
    } catch (IOException | RuntimeException e) {
      throw readError(path, e);
    }
  }

  /** Record key and partition path of every row, reading only those two columns (for the simple index). */
  public CloseableIterator<KeyAndPartition> recordKeysAndPartitions() {
    MessageType cols = stringColumns(MetaFields.RECORD_KEY, MetaFields.PARTITION_PATH);
    return new KeyColumnsIterator<>(openReader(FilterCompat.NOOP), cols,
        parquetFooter.getFileMetaData().getCreatedBy(), row -> new KeyAndPartition(row[0], row[1]),
        e -> readError(path, e));
  }

  private MessageType stringColumns(String... names) {
    List<Type> fields = new ArrayList<>(names.length);
    for (String name : names) {
      Type t = fileSchema.containsField(name) ? fileSchema.getType(name) : null;
      if (t == null || !t.isPrimitive() || t.isRepetition(Type.Repetition.REPEATED)
          || t.asPrimitiveType().getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.BINARY) {
        throw Errors.badTable(path, "has no string column " + name,
            "Files written with hoodie.populate.meta.fields=false cannot be looked up by key; "
                + "use a table written with meta fields.");
      }
      fields.add(t);
    }
    return new MessageType(fileSchema.getName(), fields);
  }

  /** The file's Parquet schema. */
  MessageType parquetSchema() {
    return fileSchema;
  }

  /** The writer that made the file (Parquet's {@code created_by}), for its column readers. */
  String createdBy() {
    return parquetFooter.getFileMetaData().getCreatedBy();
  }

  /** A fresh unfiltered reader of every column (its own stream; the caller closes it). */
  ParquetFileReader openAll() {
    return openReader(FilterCompat.NOOP);
  }

  private ParquetFileReader openReader(FilterCompat.Filter filter) {
    try {
      return ParquetFileReader.open(file, parquetFooter, options(filter), file.newStream());
    } catch (IOException | RuntimeException e) {
      throw readError(path, e);
    }
  }

  private static void closeQuietly(ParquetFileReader reader, Throwable original) {
    try {
      reader.close();
    } catch (IOException | RuntimeException e) {
      original.addSuppressed(e);
    }
  }

  /** Storage failures stay storage errors; anything else Parquet or Avro throws means the bytes are bad. */
  static SluiceException readError(String path, Throwable e) {
    if (e instanceof SluiceException s) {
      return s;
    }
    IOException storage = StorageReadException.find(e);
    if (storage != null) {
      return Errors.storage("read", path, storage);
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (root != e && root.getMessage() != null && !why.contains(root.getMessage())) {
      why = why + " (" + root.getMessage() + ")";
    }
    return Errors.badTable(path, "is not a readable Parquet file: " + why,
        "The file is damaged or incomplete; restore it from a copy (if the commit that wrote it is the latest, "
            + "'sluice rollback TABLE INSTANT' undoes that commit; 'sluice repair TABLE' says whether the file is a "
            + "failed write's leftover it can delete).", e);
  }

  /** Nothing is held open between calls; iterators close their own streams. */
  @Override
  public void close() {
    // each iterator owns its stream; the footer needs no resources
  }
}
