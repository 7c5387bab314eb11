package dev.sluice.tools.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import dev.sluice.api.SluiceException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.Writer;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Writes records as JSON Lines in exactly the form {@link RecordSources} reads ({@link InputFormat#JSON}), so
 * query output can be inserted again unchanged: one object per line, {@code null} for nulls, numbers for
 * numeric types and decimals (with their scale), ISO-8601 strings for dates, times and timestamps (UTC
 * instants with the type's precision), base64 for bytes and fixed, strings for enums and UUIDs.
 */
public final class JsonRecordWriter implements RecordFormatter {
  static final JsonFactory FACTORY = new JsonFactoryBuilder()
      .rootValueSeparator((SerializableString) null)
      .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
      // to bytes, Jackson would otherwise escape a character beyond the BMP (an emoji) as its two escaped UTF-16
      // halves, where the text form writes the character itself: a record must give the same text either way
      .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
      .build();

  private static final int SINK_BYTES = 1 << 16;

  private final Utf8Sink bytes;
  private final JsonBytes byteWriter;
  private final Writer chars;
  private final Schema schema;
  private final JsonValueWriter writer;
  private JsonGenerator generator;
  private Schema checked;

  /** A writer of records of {@code schema} to {@code out} (UTF-8). Nothing is written until {@link #write}. */
  public JsonRecordWriter(OutputStream out, Schema schema) {
    // to bytes the text goes straight into a buffer of UTF-8 (the same text Jackson's generator writes to chars)
    this.bytes = new Utf8Sink(out, SINK_BYTES);
    this.byteWriter = JsonBytes.compile(schema);
    this.chars = null;
    this.schema = schema;
    this.writer = null;
  }

  /**
   * A writer of records of {@code schema} to a character stream (the same text as to bytes; for callers that hold
   * only a {@link Writer}). Nothing is written until {@link #write}.
   */
  public JsonRecordWriter(Writer out, Schema schema) {
    this.bytes = null;
    this.byteWriter = null;
    this.chars = out;
    this.schema = schema;
    this.writer = JsonValueWriter.compile(schema);
  }

  @Override
  public void write(GenericRecord record) throws IOException {
    if (record.getSchema() != checked) {
      checkSchema(schema, record);
      checked = record.getSchema();
    }
    try {
      if (bytes != null) {
        byteWriter.write(bytes, record);
        bytes.write('\n');
        return;
      }
      if (generator == null) {
        generator = FACTORY.createGenerator(chars);
      }
      writer.write(generator, record);
    } catch (ClassCastException | NullPointerException | AvroRuntimeException e) {
      throw SluiceException.internal("a record does not match its schema " + schema.getFullName() + ": " + e, e);
    }
    generator.writeRaw('\n');
  }

  @Override
  public void close() throws IOException {
    if (generator != null) {
      generator.close();
    }
    if (bytes != null) {
      bytes.flush();
    } else {
      chars.flush();
    }
  }

  /** One record as a single line of JSON (without the newline). */
  public static String toJson(GenericRecord record) {
    return toJson(record.getSchema(), record);
  }

  /** One value of {@code schema} as JSON text, in the form the readers accept. */
  public static String toJson(Schema schema, Object value) {
    StringWriter sw = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(sw)) {
      JsonValueWriter.compile(schema).write(g, value);
    } catch (IOException e) {
      throw SluiceException.internal("writing JSON to memory failed", e);
    }
    return sw.toString();
  }

  static void checkSchema(Schema expected, GenericRecord record) {
    Schema actual = record.getSchema();
    if (actual != expected && !actual.equals(expected)) {
      throw SluiceException.internal("record schema " + actual.getFullName() + " differs from the output schema " + expected.getFullName(),
          null);
    }
  }
}
