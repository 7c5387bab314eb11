package dev.sluice.internal.clean;

import dev.sluice.internal.error.Errors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * Timeline files that Hudi writes as Avro object containers ({@code TimelineMetadataUtils}): one record, no codec,
 * the writer schema in the header. Any Avro reader decodes them.
 */
public final class AvroContainer {
  private AvroContainer() {
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
   * The first record of a container, resolved from its writer schema to {@code reader} (empty for an empty file,
   * which Hudi also treats as "no content"). Damaged bytes are a BAD_TABLE error naming {@code where}.
   */
  public static Optional<GenericRecord> read(byte[] bytes, Schema reader, String where) {
    if (bytes.length == 0) {
      return Optional.empty();
    }
    try (DataFileReader<GenericRecord> r = new DataFileReader<>(new SeekableByteArrayInput(bytes),
        new GenericDatumReader<>(null, reader))) {
      return r.hasNext() ? Optional.of(r.next()) : Optional.empty();
    } catch (IOException | AvroRuntimeException e) {
      throw Errors.badTable(where, "it is not a readable Avro file of " + reader.getName() + " (" + e.getMessage() + ")",
          "Restore the timeline file from a copy, or delete the instant if it is pending.", e);
    }
  }

  /** The first record of a container in its own writer schema (for files read only by field name). */
  public static Optional<GenericRecord> read(byte[] bytes, String where) {
    if (bytes.length == 0) {
      return Optional.empty();
    }
    try (DataFileReader<GenericRecord> r = new DataFileReader<>(new SeekableByteArrayInput(bytes),
        new GenericDatumReader<>())) {
      return r.hasNext() ? Optional.of(r.next()) : Optional.empty();
    } catch (IOException | AvroRuntimeException e) {
      throw Errors.badTable(where, "it is not a readable Avro file (" + e.getMessage() + ")",
          "Restore the timeline file from a copy, or delete the instant if it is pending.", e);
    }
  }
}
