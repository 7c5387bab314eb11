package dev.sluice.internal.timeline.avro;

import dev.sluice.internal.error.Errors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
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
 * The Avro content of timeline files that Hudi writes as Avro container files ({@code TimelineMetadataUtils}):
 * one record in an object container with no codec, the writer schema in its header. The schemas are Hudi 0.15's
 * compiled model schemas, kept as resources next to this class.
 */
public final class AvroMetadata {
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

  private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();

  private AvroMetadata() {
  }

  /** One of the schemas named by the constants of this class. */
  public static Schema schema(String name) {
    return SCHEMAS.computeIfAbsent(name, AvroMetadata::load);
  }

  private static Schema load(String name) {
    try (InputStream in = AvroMetadata.class.getResourceAsStream(name + ".avsc")) {
      if (in == null) {
        throw Errors.internal("missing schema resource " + name + ".avsc", null);
      }
      return new Schema.Parser().parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The container-file bytes of one record. */
  public static byte[] serialize(GenericRecord record) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<>(record.getSchema()))) {
      w.create(record.getSchema(), out);
      w.append(record);
      w.flush();
    } catch (IOException e) {
      throw Errors.internal("serializing " + record.getSchema().getName() + " failed", e);
    }
    return out.toByteArray();
  }

  /**
   * The first record of a container file, resolved from the writer schema in its header to {@code reader} (so files
   * of older Hudi versions read too). Damaged bytes are a BAD_TABLE error naming {@code where}.
   */
  public static GenericRecord deserialize(byte[] bytes, Schema reader, String where) {
    try (DataFileReader<GenericRecord> r = new DataFileReader<>(new SeekableByteArrayInput(bytes),
        new GenericDatumReader<>(null, reader))) {
      if (!r.hasNext()) {
        throw Errors.badTable(where, "the Avro file holds no record", "The timeline file is damaged.");
      }
      return r.next();
    } catch (IOException | AvroRuntimeException e) {
      throw Errors.badTable(where, "it is not a readable Avro container of " + reader.getName() + " (" + e.getMessage() + ")",
          "The timeline file is damaged; restore it from a copy or delete the instant.", e);
    }
  }

  /** The first record of a container file in its own writer schema (for files Sluice has no schema of). */
  public static GenericRecord deserialize(byte[] bytes, String where) {
    try (DataFileReader<GenericRecord> r = new DataFileReader<>(new SeekableByteArrayInput(bytes),
        new GenericDatumReader<>())) {
      if (!r.hasNext()) {
        throw Errors.badTable(where, "the Avro file holds no record", "The timeline file is damaged.");
      }
      return r.next();
    } catch (IOException | AvroRuntimeException e) {
      throw Errors.badTable(where, "it is not a readable Avro container (" + e.getMessage() + ")",
          "The timeline file is damaged; restore it from a copy or delete the instant.", e);
    }
  }
}
