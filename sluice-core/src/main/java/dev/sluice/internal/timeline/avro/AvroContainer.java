package dev.sluice.internal.timeline.avro;

import dev.sluice.internal.error.Errors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * The one codec of timeline files that Hudi writes as Avro object containers ({@code TimelineMetadataUtils}): one
 * record, no codec, the writer schema in the header, so any Avro reader decodes them. Clean plans and metadata,
 * compaction and clustering plans, rollback, savepoint and restore files and archived entries all go through it.
 *
 * <p>Empty files: Hudi leaves several state files empty (a {@code .compaction.inflight}, a {@code .rollback.inflight},
 * and, depending on the writer, a {@code .requested}), and its callers check for empty content before they decode.
 * So a file of no bytes reads as "no content" ({@link #read} returns empty) and the caller decides whether that is
 * legal for its action; {@link #readRequired} is for files that must hold a record. A non-empty file must be a
 * container with a record: one that holds no record is damaged, as it is to Hudi's {@code deserializeAvroMetadata}.
 */
public final class AvroContainer {
  /** {@code .rollback.requested}: {@code HoodieRollbackPlan}. */
  public static final String ROLLBACK_PLAN = "RollbackPlan";
  /** {@code .rollback}: {@code HoodieRollbackMetadata}. */
  public static final String ROLLBACK_METADATA = "RollbackMetadata";
  /** {@code .savepoint}: {@code HoodieSavepointMetadata}. */
  public static final String SAVEPOINT_METADATA = "SavepointMetadata";
  /** {@code .restore.requested}: {@code HoodieRestorePlan}. */
  public static final String RESTORE_PLAN = "RestorePlan";
  /** {@code .restore}: {@code HoodieRestoreMetadata}. */
  public static final String RESTORE_METADATA = "RestoreMetadata";

  private static final String DAMAGED_HOW = "Run 'sluice repair TABLE' (and --apply): it removes a damaged pending "
      + "clean, rollback or compaction plan and a damaged completed clean or rollback; or restore the file from a copy.";
  private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();

  private AvroContainer() {
  }

  /**
   * One of the schemas named by the constants of this class: Hudi 0.15's compiled model schemas, kept as resources
   * next to this class.
   */
  public static Schema schema(String name) {
    return SCHEMAS.computeIfAbsent(name, n -> resourceSchema(AvroContainer.class, n));
  }

  /** A schema kept as a resource next to {@code owner} ({@code <name>.avsc}). */
  public static Schema resourceSchema(Class<?> owner, String name) {
    try (InputStream in = owner.getResourceAsStream(name + ".avsc")) {
      if (in == null) {
        throw Errors.internal("missing schema resource " + name + ".avsc next to " + owner.getName(), null);
      }
      return new Schema.Parser().parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The container bytes of one record, written with the record's schema. */
  public static byte[] write(GenericRecord record) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<>(record.getSchema()))) {
      w.create(record.getSchema(), out);
      w.append(record);
      w.flush();
    } catch (IOException | AvroRuntimeException e) {
      throw Errors.internal("cannot encode " + record.getSchema().getFullName() + ": " + e.getMessage(), e);
    }
    return out.toByteArray();
  }

  /**
   * The record of a container, resolved from the writer schema in its header to {@code reader} (so files of older
   * Hudi versions read too); empty for an empty file. Damaged bytes, or a container without a record, are a
   * BAD_TABLE error naming {@code where}.
   */
  public static Optional<GenericRecord> read(byte[] bytes, Schema reader, String where) {
    return bytes.length == 0 ? Optional.empty() : Optional.of(decode(bytes, new GenericDatumReader<>(null, reader),
        reader.getName(), where));
  }

  /** The record of a container in its own writer schema (for files read only by field name); empty for an empty file. */
  public static Optional<GenericRecord> read(byte[] bytes, String where) {
    return bytes.length == 0 ? Optional.empty() : Optional.of(decode(bytes, new GenericDatumReader<>(), "", where));
  }

  /** Like {@link #read(byte[], Schema, String)} for a file that must hold a record: an empty file is BAD_TABLE too. */
  public static GenericRecord readRequired(byte[] bytes, Schema reader, String where) {
    return read(bytes, reader, where).orElseThrow(() -> empty(where, reader.getName()));
  }

  /** Like {@link #read(byte[], String)} for a file that must hold a record: an empty file is BAD_TABLE too. */
  public static GenericRecord readRequired(byte[] bytes, String where) {
    return read(bytes, where).orElseThrow(() -> empty(where, ""));
  }

  private static GenericRecord decode(byte[] bytes, GenericDatumReader<GenericRecord> datum, String type,
      String where) {
    String of = type.isEmpty() ? "" : " of " + type;
    try (DataFileReader<GenericRecord> r = new DataFileReader<>(new SeekableByteArrayInput(bytes), datum)) {
      if (!r.hasNext()) {
        throw Errors.badTable(where, "the Avro container" + of + " holds no record", DAMAGED_HOW);
      }
      return r.next();
    } catch (IOException | AvroRuntimeException e) {
      throw Errors.badTable(where, "it is not a readable Avro container" + of + " (" + e.getMessage() + ")",
          DAMAGED_HOW, e);
    }
  }

  private static RuntimeException empty(String where, String type) {
    return Errors.badTable(where, "the file is empty; it should hold " + (type.isEmpty() ? "an Avro record"
        : "a " + type + " record"), DAMAGED_HOW);
  }
}
