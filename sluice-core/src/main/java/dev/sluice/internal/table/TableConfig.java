package dev.sluice.internal.table;

import dev.sluice.api.MergeMode;
import dev.sluice.api.TableType;
import dev.sluice.internal.error.Errors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The table's {@code hoodie.properties}: an immutable, ordered map of the raw properties with typed accessors
 * that apply Hudi's defaults for absent keys. {@link #builder()} makes the properties a Hudi 0.15 writer sets
 * for a new table; {@link TableConfigStore} reads and writes them.
 */
public final class TableConfig {
  /** Table name. */
  public static final String NAME = "hoodie.table.name";
  /** {@code COPY_ON_WRITE} or {@code MERGE_ON_READ}. */
  public static final String TYPE = "hoodie.table.type";
  /** Table version ({@code 6} for Hudi 0.15). */
  public static final String VERSION = "hoodie.table.version";
  /** Timeline layout version ({@code 1}). */
  public static final String TIMELINE_LAYOUT_VERSION = "hoodie.timeline.layout.version";
  /** Folder under {@code .hoodie} holding the archived timeline. */
  public static final String ARCHIVELOG_FOLDER = "hoodie.archivelog.folder";
  /** Comma-separated record key fields. */
  public static final String RECORDKEY_FIELDS = "hoodie.table.recordkey.fields";
  /** Ordering (precombine) field. */
  public static final String PRECOMBINE_FIELD = "hoodie.table.precombine.field";
  /** Ordering fields, comma-separated (table version 9; replaces {@link #PRECOMBINE_FIELD}). */
  public static final String ORDERING_FIELDS = "hoodie.table.ordering.fields";
  /** Merge mode (table versions 8 and 9): COMMIT_TIME_ORDERING, EVENT_TIME_ORDERING or CUSTOM. */
  public static final String RECORD_MERGE_MODE = "hoodie.record.merge.mode";
  /** Comma-separated partition fields; empty or absent for a non-partitioned table. */
  public static final String PARTITION_FIELDS = "hoodie.table.partition.fields";
  /** Key generator class name. */
  public static final String KEY_GENERATOR_CLASS = "hoodie.table.keygenerator.class";
  /** Whether partition columns are dropped from data files. */
  public static final String DROP_PARTITION_COLUMNS = "hoodie.datasource.write.drop.partition.columns";
  /** Payload class (merge semantics). */
  public static final String PAYLOAD_CLASS = "hoodie.compaction.payload.class";
  /** Record merger strategy id. */
  public static final String RECORD_MERGER_STRATEGY = "hoodie.compaction.record.merger.strategy";
  /** Base file format ({@code PARQUET}). */
  public static final String BASE_FILE_FORMAT = "hoodie.table.base.file.format";
  /** Log file format ({@code HOODIE_LOG}). */
  public static final String LOG_FILE_FORMAT = "hoodie.table.log.file.format";
  /** Whether the five {@code _hoodie_*} meta columns are written. */
  public static final String POPULATE_META_FIELDS = "hoodie.populate.meta.fields";
  /** Hive-style ({@code field=value}) partition paths. */
  public static final String HIVE_STYLE_PARTITIONING = "hoodie.datasource.write.hive_style_partitioning";
  /** URL-encoded partition path values. */
  public static final String URL_ENCODE_PARTITIONING = "hoodie.datasource.write.partitionpath.urlencode";
  /** Whether partition metadata files use the base file format. */
  public static final String PARTITION_METAFILE_USE_BASE_FORMAT = "hoodie.partition.metafile.use.base.format";
  /** Change data capture. */
  public static final String CDC_ENABLED = "hoodie.table.cdc.enabled";
  /** Database name; part of the checksum. */
  public static final String DATABASE_NAME = "hoodie.database.name";
  /** {@code LOCAL} or {@code UTC}. */
  public static final String TIMELINE_TIMEZONE = "hoodie.table.timeline.timezone";
  /** Completed metadata-table partitions, comma-separated. */
  public static final String METADATA_PARTITIONS = "hoodie.table.metadata.partitions";
  /** Metadata-table partitions being built, comma-separated. */
  public static final String METADATA_PARTITIONS_INFLIGHT = "hoodie.table.metadata.partitions.inflight";
  /** Schema given at table creation. */
  public static final String CREATE_SCHEMA = "hoodie.table.create.schema";
  /** CRC32 of {@code database + "." + name}; always the last key written. */
  public static final String CHECKSUM = "hoodie.table.checksum";

  /** Hudi's default payload class for MoR tables ({@code HoodieTableConfig.PAYLOAD_CLASS_NAME}). */
  public static final String DEFAULT_PAYLOAD_CLASS = "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload";
  /** {@code HoodieRecordMerger.DEFAULT_MERGER_STRATEGY_UUID}. */
  public static final String DEFAULT_MERGER_STRATEGY = "eeb8d96f-b1e4-49fd-bbf8-28ac514178e5";
  /** Key generator for one record key field and one partition field. */
  public static final String SIMPLE_KEYGEN = "org.apache.hudi.keygen.SimpleKeyGenerator";
  /** Key generator for several record key or partition fields. */
  public static final String COMPLEX_KEYGEN = "org.apache.hudi.keygen.ComplexKeyGenerator";
  /** Key generator for non-partitioned tables (one or several record key fields). */
  public static final String NONPARTITIONED_KEYGEN = "org.apache.hudi.keygen.NonpartitionedKeyGenerator";
  /** The table version Sluice writes. */
  public static final int CURRENT_TABLE_VERSION = 6;
  /** {@code hoodie.table.initial.version} (Hudi 1.x): the version the table was created with. */
  public static final String INITIAL_VERSION = "hoodie.table.initial.version";
  /** {@code hoodie.timeline.path} (Hudi 1.x): the active timeline's folder under {@code .hoodie}. */
  public static final String TIMELINE_PATH = "hoodie.timeline.path";
  /** {@code hoodie.timeline.history.path} (Hudi 1.x): the LSM archive's folder under the timeline folder. */
  public static final String TIMELINE_HISTORY_PATH = "hoodie.timeline.history.path";
  /** {@code hoodie.table.keygenerator.type} (Hudi 1.x): the key generator by name. */
  public static final String KEY_GENERATOR_TYPE = "hoodie.table.keygenerator.type";
  /** {@code hoodie.record.merge.strategy.id} (Hudi 1.x name of the merger strategy key). */
  public static final String RECORD_MERGE_STRATEGY_ID = "hoodie.record.merge.strategy.id";
  /** {@code hoodie.table.multiple.base.file.formats.enable} (Hudi 1.x). */
  public static final String MULTIPLE_BASE_FILE_FORMATS = "hoodie.table.multiple.base.file.formats.enable";
  /** Hudi 1.x's merge strategy of commit-time ordering ({@code COMMIT_TIME_BASED_MERGE_STRATEGY_UUID}). */
  public static final String COMMIT_TIME_MERGE_STRATEGY = "ce9acb64-bde0-424c-9b91-f6ebba25356d";
  /** Hudi's event-time payload, the version-8 payload of event-time ordering. */
  public static final String EVENT_TIME_PAYLOAD_CLASS = "org.apache.hudi.common.model.DefaultHoodieRecordPayload";

  private final Map<String, String> props;

  private TableConfig(Map<String, String> props) {
    this.props = Collections.unmodifiableMap(new LinkedHashMap<>(props));
  }

  /** A config holding exactly these raw properties (as read from a file); {@code hoodie.table.name} is required. */
  public static TableConfig of(Map<String, String> props) {
    if (props.get(NAME) == null || props.get(NAME).isEmpty()) {
      throw Errors.badRequest("Table config", "'" + NAME + "' is missing", "Every Hudi table needs a name.");
    }
    return new TableConfig(props);
  }

  /** A builder for the properties of a new table. */
  public static Builder builder() {
    return new Builder();
  }

  /** The table name. */
  public String name() {
    return props.get(NAME);
  }

  /** The table type; Copy-on-Write when absent (Hudi's default). */
  public TableType type() {
    String t = props.get(TYPE);
    if (t == null || t.isBlank()) {
      return TableType.COPY_ON_WRITE;
    }
    try {
      return TableType.valueOf(t.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw Errors.badConfig(TYPE, t, "COPY_ON_WRITE or MERGE_ON_READ");
    }
  }

  /** Record key fields, in order; empty if none are configured. */
  public List<String> recordKeyFields() {
    return splitList(props.get(RECORDKEY_FIELDS));
  }

  /**
   * The ordering field, if any: {@code hoodie.table.precombine.field}, else (version 9) the one field of
   * {@code hoodie.table.ordering.fields}. Several ordering fields (Hudi 1.1) are UNSUPPORTED.
   */
  public Optional<String> precombineField() {
    Optional<String> precombine = get(PRECOMBINE_FIELD).filter(s -> !s.isEmpty());
    if (precombine.isPresent()) {
      return precombine;
    }
    List<String> ordering = splitList(props.get(ORDERING_FIELDS));
    if (ordering.size() > 1) {
      throw Errors.unsupported("Several ordering fields (" + ORDERING_FIELDS + "=" + props.get(ORDERING_FIELDS)
          + ", table '" + name() + "')", "Sluice orders records by one field; read this table with Hudi 1.1.");
    }
    return ordering.stream().findFirst();
  }

  /**
   * How two versions of a key are merged: {@code hoodie.record.merge.mode} when the table records one (versions 8
   * and 9), else the mode of the payload class (version 6). CUSTOM (a merger or payload class of the user's) is
   * UNSUPPORTED: Sluice would merge such a table wrongly.
   */
  public MergeMode mergeMode() {
    Optional<String> mode = get(RECORD_MERGE_MODE).map(String::trim).filter(s -> !s.isEmpty());
    if (mode.isEmpty()) {
      return MergeMode.fromPayloadClass(payloadClass());
    }
    return switch (mode.get().toUpperCase(Locale.ROOT)) {
      case "COMMIT_TIME_ORDERING" -> MergeMode.COMMIT_TIME_ORDERING;
      case "EVENT_TIME_ORDERING" -> MergeMode.EVENT_TIME_ORDERING;
      case "CUSTOM" -> throw Errors.unsupported("The CUSTOM merge mode of table '" + name() + "' (payload "
          + payloadClass().orElse("none") + ", merge strategy " + get("hoodie.record.merge.strategy.id").orElse("none")
          + ")", "Sluice merges by commit time or event time only; read this table with Hudi.");
      default -> throw Errors.badConfig(RECORD_MERGE_MODE, mode.get(),
          "COMMIT_TIME_ORDERING, EVENT_TIME_ORDERING or CUSTOM");
    };
  }

  /**
   * True if the table records a merge mode ({@code hoodie.record.merge.mode}, versions 8 and 9): it is merged by
   * Hudi 1.x's merge-mode rules rather than by Hudi 0.x's payload classes.
   */
  public boolean hasMergeMode() {
    return get(RECORD_MERGE_MODE).filter(s -> !s.isBlank()).isPresent();
  }

  /**
   * Partition fields in order; empty for a non-partitioned table. Hudi 1.x writes a custom key generator's fields as
   * {@code field:type} ({@code getPartitionFieldWithoutKeyGenPartitionType}): the type is dropped here.
   */
  public List<String> partitionFields() {
    return splitList(props.get(PARTITION_FIELDS)).stream().map(f -> f.contains(":") ? f.substring(0, f.indexOf(':')) : f)
        .toList();
  }

  /** True if the table has partition fields. */
  public boolean isPartitioned() {
    return !partitionFields().isEmpty();
  }

  /** Hive-style partition paths ({@code field=value}); false when absent. */
  public boolean hiveStylePartitioning() {
    return bool(HIVE_STYLE_PARTITIONING, false);
  }

  /** URL-encoded partition values; false when absent. */
  public boolean urlEncodePartitioning() {
    return bool(URL_ENCODE_PARTITIONING, false);
  }

  /** The payload class, if recorded. */
  public Optional<String> payloadClass() {
    return get(PAYLOAD_CLASS).filter(s -> !s.isEmpty());
  }

  /** The key generator class, if recorded. */
  public Optional<String> keyGeneratorClass() {
    return get(KEY_GENERATOR_CLASS).filter(s -> !s.isEmpty());
  }

  /**
   * True when a record key of this table's one key field is written as {@code field:value}, not as the plain value:
   * a complex key generator (by class or, on versions 8 and 9, by type) with exactly one record key field on version
   * 9. Hudi 1.1 encodes it so on version 9 ({@code KeyGenUtils.encodeSingleKeyFieldNameForComplexKeyGen}); Hudi 0.14.1
   * to 1.0.2, the writers of versions 6 and 8, write the plain value, and so does Sluice on those versions (Hudi 1.1
   * refuses to write such a version 6 or 8 table until its user checks it for the keys HUDI-7001 duplicated).
   */
  public boolean namesSingleKeyField() {
    return tableVersion() >= 9 && complexKeyOfOneField();
  }

  /** True for a complex key generator with exactly one record key field, whose key form depends on the version. */
  public boolean complexKeyOfOneField() {
    if (recordKeyFields().size() != 1) {
      return false;
    }
    Optional<String> type = get(KEY_GENERATOR_TYPE).or(() -> keyGeneratorClass().flatMap(TableConfig::keyGeneratorType));
    return type.filter(t -> t.equals("COMPLEX") || t.equals("COMPLEX_AVRO")).isPresent();
  }

  /**
   * The one record key field whose value is each row's record key as it stands, if the key generator makes it so: a
   * simple or non-partitioned key generator (by type or class) over one top-level field. Both write the field's value
   * as a string into {@code _hoodie_record_key} (a complex one may write {@code field:value}, see
   * {@link #namesSingleKeyField}); a reader that has the field may take the key from it.
   */
  public Optional<String> plainKeyField() {
    List<String> fields = recordKeyFields();
    if (fields.size() != 1 || fields.get(0).contains(".")) {
      return Optional.empty();
    }
    Optional<String> type = get(KEY_GENERATOR_TYPE).or(() -> keyGeneratorClass().flatMap(TableConfig::keyGeneratorType));
    return type.filter(t -> List.of("SIMPLE", "SIMPLE_AVRO", "NON_PARTITION", "NON_PARTITION_AVRO").contains(t))
        .map(t -> fields.get(0));
  }

  /** The table version; 0 when absent (Hudi's default for very old tables). */
  public int tableVersion() {
    return integer(VERSION, 0);
  }

  /** The timeline layout version; 0 when absent. */
  public int timelineLayoutVersion() {
    return integer(TIMELINE_LAYOUT_VERSION, 0);
  }

  /** The base file format name, upper case; {@code PARQUET} when absent. */
  public String baseFileFormat() {
    return get(BASE_FILE_FORMAT).filter(s -> !s.isBlank()).map(s -> s.trim().toUpperCase(Locale.ROOT)).orElse("PARQUET");
  }

  /** Whether meta columns are written; true when absent. */
  public boolean populateMetaFields() {
    return bool(POPULATE_META_FIELDS, true);
  }

  /** Whether partition columns are dropped from data files; false when absent. */
  public boolean dropPartitionColumns() {
    return bool(DROP_PARTITION_COLUMNS, false);
  }

  /** The archived timeline folder name under {@code .hoodie}; {@code archived} when absent. */
  public String archiveLogFolder() {
    return get(ARCHIVELOG_FOLDER).filter(s -> !s.isEmpty()).orElse("archived");
  }

  /** Completed metadata-table partitions; empty if none. */
  public List<String> metadataPartitions() {
    return splitList(props.get(METADATA_PARTITIONS));
  }

  /** Metadata-table partitions being built; empty if none. */
  public List<String> metadataPartitionsInflight() {
    return splitList(props.get(METADATA_PARTITIONS_INFLIGHT));
  }

  /** The database name, if any. */
  public Optional<String> databaseName() {
    return get(DATABASE_NAME).filter(s -> !s.isEmpty());
  }

  /** The clock of instant times; LOCAL when absent. */
  public TimelineTimezone timelineTimezone() {
    String v = props.get(TIMELINE_TIMEZONE);
    if (v == null || v.isBlank()) {
      return TimelineTimezone.LOCAL;
    }
    try {
      return TimelineTimezone.valueOf(v.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw Errors.badConfig(TIMELINE_TIMEZONE, v, "LOCAL or UTC");
    }
  }

  /** The checksum Hudi expects for this name and database: CRC32 of {@code db + "." + name}, unsigned. */
  public long expectedChecksum() {
    return TableConfigStore.checksum(databaseName().orElse(""), name());
  }

  /** All raw properties in file order. */
  public Map<String, String> properties() {
    return props;
  }

  /** The raw value of {@code key}. */
  public Optional<String> get(String key) {
    return Optional.ofNullable(props.get(key));
  }

  /** A copy with {@code key} set (appended if new, replaced in place otherwise). */
  public TableConfig with(String key, String value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    Map<String, String> m = new LinkedHashMap<>(props);
    m.put(key, value);
    return of(m);
  }

  /** A copy without {@code key}. */
  public TableConfig without(String key) {
    Map<String, String> m = new LinkedHashMap<>(props);
    m.remove(key);
    return of(m);
  }

  private boolean bool(String key, boolean def) {
    String v = props.get(key);
    return v == null || v.isBlank() ? def : Boolean.parseBoolean(v.trim());
  }

  private int integer(String key, int def) {
    String v = props.get(key);
    if (v == null || v.isBlank()) {
      return def;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw Errors.badConfig(key, v, "a whole number");
    }
  }

  private static List<String> splitList(String v) {
    if (v == null || v.isEmpty()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (String s : v.split(",")) {
      String t = s.trim();
      if (!t.isEmpty()) {
        out.add(t);
      }
    }
    return List.copyOf(out);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TableConfig other && props.equals(other.props);
  }

  @Override
  public int hashCode() {
    return props.hashCode();
  }

  @Override
  public String toString() {
    return "TableConfig" + props;
  }

  /**
   * {@code v} if Sluice creates tables of that version (6, 8, 9), else BAD_REQUEST: one rule for the api's
   * {@code TableSpec} and this builder.
   */
  public static int creatableVersion(int v) {
    if (v != 6 && v != 8 && v != 9) {
      throw Errors.badRequest("Table version " + v, "Sluice creates tables of version 6, 8 or 9",
          "Give --table-version 6, 8 or 9.");
    }
    return v;
  }

  /** The key generator Hudi infers for these fields ({@code KeyGenUtils.inferKeyGeneratorType}). */
  static String inferKeyGenerator(List<String> keyFields, List<String> partitionFields) {
    if (partitionFields.isEmpty()) {
      // NonpartitionedKeyGenerator takes one or several key fields (several use the complex key format)
      return NONPARTITIONED_KEYGEN;
    }
    return partitionFields.size() == 1 && keyFields.size() <= 1 ? SIMPLE_KEYGEN : COMPLEX_KEYGEN;
  }

  /** Builds the properties of a new table the way a Hudi 0.15 writer sets them. */
  public static final class Builder {
    private String name;
    private TableType type = TableType.COPY_ON_WRITE;
    private List<String> recordKeyFields = List.of();
    private String precombineField;
    private List<String> partitionFields = List.of();
    private boolean hiveStyle;
    private boolean urlEncode;
    private String payloadClass;
    private String keyGeneratorClass;
    private String databaseName;
    private TimelineTimezone timezone;
    private String baseFileFormat = "PARQUET";
    private boolean populateMetaFields = true;
    private int tableVersion = CURRENT_TABLE_VERSION;
    private boolean commitTimeOrdering;
    private final Map<String, String> extra = new LinkedHashMap<>();

    private Builder() {
    }

    /** Table name (required). */
    public Builder name(String v) {
      this.name = v;
      return this;
    }

    /** Table type (default Copy-on-Write). */
    public Builder type(TableType v) {
      this.type = Objects.requireNonNull(v);
      return this;
    }

    /** Record key fields. */
    public Builder recordKeyFields(List<String> v) {
      this.recordKeyFields = List.copyOf(v);
      return this;
    }

    /** Record key fields. */
    public Builder recordKeyFields(String... v) {
      return recordKeyFields(Arrays.asList(v));
    }

    /** Ordering field. */
    public Builder precombineField(String v) {
      this.precombineField = v;
      return this;
    }

    /** Partition fields; none for a non-partitioned table. */
    public Builder partitionFields(List<String> v) {
      this.partitionFields = List.copyOf(v);
      return this;
    }

    /** Partition fields. */
    public Builder partitionFields(String... v) {
      return partitionFields(Arrays.asList(v));
    }

    /** Hive-style partition paths. */
    public Builder hiveStylePartitioning(boolean v) {
      this.hiveStyle = v;
      return this;
    }

    /** URL-encoded partition values. */
    public Builder urlEncodePartitioning(boolean v) {
      this.urlEncode = v;
      return this;
    }

    /** Payload class; also records the default merger strategy. */
    public Builder payloadClass(String v) {
      this.payloadClass = v;
      return this;
    }

    /** Key generator class; inferred from the field counts when not given. */
    public Builder keyGeneratorClass(String v) {
      this.keyGeneratorClass = v;
      return this;
    }

    /** Database name (part of the checksum). */
    public Builder databaseName(String v) {
      this.databaseName = v;
      return this;
    }

    /** Timeline time zone; written only when set. */
    public Builder timelineTimezone(TimelineTimezone v) {
      this.timezone = v;
      return this;
    }

    /** Base file format (only PARQUET is supported by Sluice's writers). */
    public Builder baseFileFormat(String v) {
      this.baseFileFormat = v.toUpperCase(Locale.ROOT);
      return this;
    }

    /** Whether meta columns are written (default true). */
    public Builder populateMetaFields(boolean v) {
      this.populateMetaFields = v;
      return this;
    }

    /**
     * The table version: 6 (default, as Hudi 0.15 writes it), 8 (as Hudi 1.0.2 writes it) or 9 (as Hudi 1.1.1's Java
     * client writes it).
     */
    public Builder tableVersion(int v) {
      this.tableVersion = creatableVersion(v);
      return this;
    }

    /**
     * Versions 8 and 9: the merge mode, commit-time ordering if {@code true}, else event-time ordering (which needs an
     * ordering field: without one the table is commit-time ordered, as Hudi 1.x infers it). Version 6 takes the
     * payload class instead.
     */
    public Builder commitTimeOrdering(boolean v) {
      this.commitTimeOrdering = v;
      return this;
    }

    /** Any further raw property, written after the standard ones. */
    public Builder property(String key, String value) {
      extra.put(Objects.requireNonNull(key), Objects.requireNonNull(value));
      return this;
    }

    /** The config; the checksum is added when it is written. */
    public TableConfig build() {
      if (name == null || name.isBlank()) {
        throw Errors.badRequest("Creating a table", "no table name was given", "Set the table name.");
      }
      if (tableVersion != CURRENT_TABLE_VERSION) {
        return new TableConfig(hudi1Properties());
      }
      Map<String, String> m = new LinkedHashMap<>();
      if (databaseName != null && !databaseName.isEmpty()) {
        m.put(DATABASE_NAME, databaseName);
      }
      m.put(NAME, name);
      m.put(TYPE, type.name());
      m.put(VERSION, Integer.toString(CURRENT_TABLE_VERSION));
      String payload = payloadClass;
      if (payload == null && type == TableType.MERGE_ON_READ) {
        // HoodieTableConfig.create() defaults these for MoR tables only
        payload = DEFAULT_PAYLOAD_CLASS;
      }
      if (payload != null) {
        m.put(PAYLOAD_CLASS, payload);
        m.put(RECORD_MERGER_STRATEGY, DEFAULT_MERGER_STRATEGY);
      }
      m.put(ARCHIVELOG_FOLDER, "archived");
      m.put(TIMELINE_LAYOUT_VERSION, "1");
      m.put(BASE_FILE_FORMAT, baseFileFormat);
      if (precombineField != null && !precombineField.isEmpty()) {
        m.put(PRECOMBINE_FIELD, precombineField);
      }
      m.put(PARTITION_FIELDS, String.join(",", partitionFields));
      if (!recordKeyFields.isEmpty()) {
        m.put(RECORDKEY_FIELDS, String.join(",", recordKeyFields));
      }
      m.put(CDC_ENABLED, "false");
      m.put(POPULATE_META_FIELDS, Boolean.toString(populateMetaFields));
      m.put(KEY_GENERATOR_CLASS, keyGeneratorClass != null ? keyGeneratorClass
          : inferKeyGenerator(recordKeyFields, partitionFields));
      m.put(HIVE_STYLE_PARTITIONING, Boolean.toString(hiveStyle));
      m.put(URL_ENCODE_PARTITIONING, Boolean.toString(urlEncode));
      if (timezone != null) {
        m.put(TIMELINE_TIMEZONE, timezone.name());
      }
      m.put(PARTITION_METAFILE_USE_BASE_FORMAT, "false");
      m.put(DROP_PARTITION_COLUMNS, "false");
      m.putAll(extra);
      m.remove(CHECKSUM);
      return new TableConfig(m);
    }

    /**
     * The properties of a new version-8 table as Hudi 1.0.2 writes them (merge mode with its payload class and merge
     * strategy, the ordering field as {@code hoodie.table.precombine.field}) or of a version-9 table as Hudi 1.1.1's
     * Java client does (merge mode and {@code hoodie.table.ordering.fields} only). Both: timeline layout 2 under
     * {@code .hoodie/timeline}, the initial version, the key generator by type and not by class (a key generator
     * without a type name keeps its class, as {@code USER_PROVIDED}). No metadata-table keys: the first write lists
     * the metadata table's partitions once it has built them, as on version 6.
     */
    private Map<String, String> hudi1Properties() {
      boolean ordered = precombineField != null && !precombineField.isEmpty();
      boolean commitTime = commitTimeOrdering || !ordered;
      String keyGen = keyGeneratorClass != null ? keyGeneratorClass : inferKeyGenerator(recordKeyFields, partitionFields);
      Optional<String> keyGenType = keyGeneratorType(keyGen);
      Map<String, String> m = new LinkedHashMap<>();
      if (databaseName != null && !databaseName.isEmpty()) {
        m.put(DATABASE_NAME, databaseName);
      }
      m.put(NAME, name);
      m.put(TYPE, type.name());
      m.put(VERSION, Integer.toString(tableVersion));
      m.put(INITIAL_VERSION, Integer.toString(tableVersion));
      m.put(RECORD_MERGE_MODE, commitTime ? "COMMIT_TIME_ORDERING" : "EVENT_TIME_ORDERING");
      if (tableVersion == 8) {
        // HoodieTableConfig.inferCorrectMergingBehavior [1.0.2]: payload and strategy of the mode, always written
        m.put(PAYLOAD_CLASS, commitTime ? DEFAULT_PAYLOAD_CLASS : EVENT_TIME_PAYLOAD_CLASS);
        m.put(RECORD_MERGE_STRATEGY_ID, commitTime ? COMMIT_TIME_MERGE_STRATEGY : DEFAULT_MERGER_STRATEGY);
        if (ordered) {
          m.put(PRECOMBINE_FIELD, precombineField);
        }
      } else if (ordered) {
        m.put(ORDERING_FIELDS, precombineField);
      }
      m.put(ARCHIVELOG_FOLDER, "archived");
      m.put(TIMELINE_LAYOUT_VERSION, "2");
      m.put(TIMELINE_PATH, "timeline");
      m.put(TIMELINE_HISTORY_PATH, "history");
      m.put(BASE_FILE_FORMAT, baseFileFormat);
      m.put(PARTITION_FIELDS, String.join(",", partitionFields));
      if (!recordKeyFields.isEmpty()) {
        m.put(RECORDKEY_FIELDS, String.join(",", recordKeyFields));
      }
      if (tableVersion == 8) {
        m.put(CDC_ENABLED, "false");
        m.put(MULTIPLE_BASE_FILE_FORMATS, "false");
        m.put(PARTITION_METAFILE_USE_BASE_FORMAT, "false");
      }
      m.put(POPULATE_META_FIELDS, Boolean.toString(populateMetaFields));
      m.put(KEY_GENERATOR_TYPE, keyGenType.orElse("USER_PROVIDED"));
      if (keyGenType.isEmpty()) {
        m.put(KEY_GENERATOR_CLASS, keyGen);
      }
      m.put(HIVE_STYLE_PARTITIONING, Boolean.toString(hiveStyle));
      m.put(URL_ENCODE_PARTITIONING, Boolean.toString(urlEncode));
      if (timezone != null) {
        m.put(TIMELINE_TIMEZONE, timezone.name());
      }
      m.put(DROP_PARTITION_COLUMNS, "false");
      m.putAll(extra);
      m.remove(CHECKSUM);
      return m;
    }
  }

  /**
   * The {@code KeyGeneratorType} name of a key generator class ({@code KeyGeneratorType.fromClassName}); empty for a
   * class Hudi has no name for.
   */
  public static Optional<String> keyGeneratorType(String className) {
    return Optional.ofNullable(KEY_GENERATOR_TYPES.get(className));
  }

  private static final Map<String, String> KEY_GENERATOR_TYPES = keyGeneratorTypes();

  private static Map<String, String> keyGeneratorTypes() {
    Map<String, String> m = new LinkedHashMap<>();
    String k = "org.apache.hudi.keygen.";
    m.put(k + "SimpleKeyGenerator", "SIMPLE");
    m.put(k + "SimpleAvroKeyGenerator", "SIMPLE_AVRO");
    m.put(k + "ComplexKeyGenerator", "COMPLEX");
    m.put(k + "ComplexAvroKeyGenerator", "COMPLEX_AVRO");
    m.put(k + "TimestampBasedKeyGenerator", "TIMESTAMP");
    m.put(k + "TimestampBasedAvroKeyGenerator", "TIMESTAMP_AVRO");
    m.put(k + "CustomKeyGenerator", "CUSTOM");
    m.put(k + "CustomAvroKeyGenerator", "CUSTOM_AVRO");
    m.put(k + "NonpartitionedKeyGenerator", "NON_PARTITION");
    m.put(k + "NonpartitionedAvroKeyGenerator", "NON_PARTITION_AVRO");
    m.put(k + "GlobalDeleteKeyGenerator", "GLOBAL_DELETE");
    m.put(k + "GlobalAvroDeleteKeyGenerator", "GLOBAL_DELETE_AVRO");
    // the metadata table's own (KeyGeneratorType.HOODIE_TABLE_METADATA), typed by an upgrade of its properties
    m.put("org.apache.hudi.metadata.HoodieTableMetadataKeyGenerator", "HOODIE_TABLE_METADATA");
    return Map.copyOf(m);
  }
}
