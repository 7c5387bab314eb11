package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.SluiceException;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/** Test helpers: write input files, read them back, expect bad-input errors. */
final class Inputs {
  private Inputs() {
  }

  static Path write(Path dir, String name, String content) {
    try {
      return Files.write(dir.resolve(name), content.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<GenericRecord> readAll(Path file, InputFormat format, Schema schema, InputOptions options) {
    List<GenericRecord> out = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = RecordSources.open(file, format, schema, options)) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  static List<GenericRecord> readAll(Path file, InputFormat format, Schema schema) {
    return readAll(file, format, schema, InputOptions.defaults());
  }

  /** Reads the whole file expecting a BAD_INPUT error, and returns its message. */
  static String badInput(Path file, InputFormat format, Schema schema, InputOptions options) {
    SluiceException e = assertThrows(SluiceException.class, () -> readAll(file, format, schema, options));
    assertEquals(SluiceException.Kind.BAD_INPUT, e.kind(), e::getMessage);
    return e.getMessage();
  }

  static String badInput(Path file, InputFormat format, Schema schema) {
    return badInput(file, format, schema, InputOptions.defaults());
  }

  /** A record schema with one field {@code v} of the given type (JSON). */
  static Schema oneField(String typeJson) {
    return new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"v\",\"type\":" + typeJson + "}]}");
  }

  static Schema parse(String json) {
    return new Schema.Parser().parse(json);
  }
}
