package dev.sluice.internal.mdt;

import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.error.Errors;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The metadata table's records ({@code HoodieMetadataRecord} of Hudi 0.15) to and from Sluice's values:
 * {@link FilesRecord} (types 1 and 2) and {@link RecordLocation} (type 5). The schema is the one compiled into
 * Hudi 0.15 (resource {@code HoodieMetadataRecord.avsc}); data and log files store records with the five
 * {@code _hoodie_*} meta fields in front ({@link #storedSchema}), all null.
 */
public final class MetadataRecords {
  /** Record type of a record-index entry. */
  public static final int RECORD_INDEX = 5;
  /** The field holding the key. */
  public static final String KEY = "key";

  private static final Schema SCHEMA = load();
  private static final Schema STORED = MetaFields.withMetaFields(SCHEMA);
  private static final Schema FILES_MAP = SCHEMA.getField("filesystemMetadata").schema().getTypes().get(1);
  private static final Schema FILE_INFO = FILES_MAP.getValueType();
  private static final Schema INDEX_INFO = SCHEMA.getField("recordIndexMetadata").schema().getTypes().get(1);

  private MetadataRecords() {
  }

  private static Schema load() {
    try (InputStream in = MetadataRecords.class.getResourceAsStream("HoodieMetadataRecord.avsc")) {
      if (in == null) {
        throw new IllegalStateException("HoodieMetadataRecord.avsc is missing from the classpath");
      }
      return new Schema.Parser().parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code HoodieMetadataRecord} without meta fields (the commit metadata's {@code schema}). */
  public static Schema schema() {
    return SCHEMA;
  }

  /** {@code HoodieMetadataRecord} with the five meta fields in front, as base and log HFiles store it. */
  public static Schema storedSchema() {
    return STORED;
  }

  /** {@code r} as a stored record (meta fields null). */
  public static GenericRecord toAvro(FilesRecord r) {
    GenericData.Record out = new GenericData.Record(STORED);
    out.put(KEY, r.key());
    out.put("type", r.type());
    Map<String, GenericRecord> files = new LinkedHashMap<>();
    r.entries().forEach((name, e) -> {
      GenericData.Record info = new GenericData.Record(FILE_INFO);
      info.put("size", e.size());
      info.put("isDeleted", e.deleted());
      files.put(name, info);
    });
    out.put("filesystemMetadata", files);
    return out;
  }

  /**
   * The record-index entry of {@code key} at {@code location}, in file id encoding 0 when the file id is a UUID
   * (with or without {@code -<n>}), otherwise encoding 1 (the raw id).
   */
  public static GenericRecord toAvro(String key, RecordLocation location) {
    GenericData.Record info = new GenericData.Record(INDEX_INFO);
    info.put("partitionName", location.partition());
    Optional<RecordLocation.UuidFileId> uuid = location.uuidForm();
    if (uuid.isPresent()) {
      info.put("fileIdHighBits", uuid.get().high());
      info.put("fileIdLowBits", uuid.get().low());
      info.put("fileIndex", uuid.get().index());
      info.put("fileId", "");
      info.put("fileIdEncoding", 0);
    } else {
      info.put("fileIdHighBits", -1L);
      info.put("fileIdLowBits", -1L);
      info.put("fileIndex", -1);
      info.put("fileId", location.fileId());
      info.put("fileIdEncoding", 1);
    }
    info.put("instantTime", location.instantMillis());
    GenericData.Record out = new GenericData.Record(STORED);
    out.put(KEY, key);
    out.put("type", RECORD_INDEX);
    out.put("recordIndexMetadata", info);
    return out;
  }

  /** The record's type code. */
  public static int type(GenericRecord r) {
    return (Integer) r.get("type");
  }

  /** The {@code files} record {@code r} holds; {@code label} names where it was read, for errors. */
  public static FilesRecord files(GenericRecord r, String label) {
    int type = type(r);
    Object map = r.get("filesystemMetadata");
    if ((type != FilesRecord.PARTITION_LIST && type != FilesRecord.FILE_LIST) || !(map instanceof Map<?, ?> m)) {
      throw Errors.badTable(label, "metadata record '" + r.get(KEY) + "' of type " + type + " is not a files record"
          + " with a filesystemMetadata map", "Rebuild the metadata table: sluice metadata delete, then init.");
    }
    Map<String, FileEntry> entries = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      GenericRecord info = (GenericRecord) e.getValue();
      entries.put(e.getKey().toString(), new FileEntry((Long) info.get("size"), (Boolean) info.get("isDeleted")));
    }
    return new FilesRecord(r.get(KEY).toString(), type, entries);
  }

  /** The location a record-index entry {@code r} holds; {@code label} names where it was read, for errors. */
  public static RecordLocation location(GenericRecord r, String label) {
    Object value = type(r) == RECORD_INDEX ? r.get("recordIndexMetadata") : null;
    if (!(value instanceof GenericRecord info)) {
      throw Errors.badTable(label, "metadata record '" + r.get(KEY) + "' of type " + type(r)
          + " is not a record-index entry", "Rebuild the record index: sluice metadata init --record-index.");
    }
    Object encoding = info.get("fileIdEncoding");
    String fileId;
    if (encoding == null || (Integer) encoding == 0) {
      fileId = new RecordLocation.UuidFileId((Long) info.get("fileIdHighBits"), (Long) info.get("fileIdLowBits"),
          (Integer) info.get("fileIndex")).fileId();
    } else {
      fileId = info.get("fileId").toString();
    }
    Object partition = info.get("partitionName");
    Object millis = info.get("instantTime");
    return new RecordLocation(partition == null ? "" : partition.toString(), fileId,
        millis == null ? "" : RecordLocation.instantOf((Long) millis));
  }
}
