package dev.sluice.oracle;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonDecoder;
import org.apache.avro.io.JsonEncoder;

/**
 * The oracle's interchange format: a schema line followed by one record per line in Avro's JSON encoding.
 */
final class AvroJson {

  private AvroJson() {
  }

  /** Schema plus records read from an input file. */
  record Batch(Schema schema, List<GenericRecord> records) {
  }

  static Batch readBatch(Path file) throws IOException {
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String schemaLine = reader.readLine();
      if (schemaLine == null || schemaLine.isBlank()) {
        throw new IOException("input file " + file + " is empty: its first line must be the Avro schema");
      }
      Schema schema = new Schema.Parser().parse(schemaLine);
      GenericDatumReader<GenericRecord> datumReader = new GenericDatumReader<>(schema);
      List<GenericRecord> records = new ArrayList<>();
      String line;
      int lineNo = 1;
      while ((line = reader.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        try {
          JsonDecoder decoder = DecoderFactory.get().jsonDecoder(schema, line);
          records.add(datumReader.read(null, decoder));
        } catch (IOException | RuntimeException e) {
          throw new IOException("cannot decode record on line " + lineNo + " of " + file + ": " + e.getMessage(), e);
        }
      }
      return new Batch(schema, Collections.unmodifiableList(records));
    }
  }

  /** One record as a single line of Avro JSON (no trailing newline). */
  static String encode(Schema schema, IndexedRecord record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    JsonEncoder encoder = EncoderFactory.get().jsonEncoder(schema, out);
    new GenericDatumWriter<IndexedRecord>(schema).write(record, encoder);
    encoder.flush();
    return out.toString(StandardCharsets.UTF_8).trim();
  }
}
