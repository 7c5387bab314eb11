package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.avro.generic.GenericRecord;

/** Whatever {@link JsonRecordWriter} writes, the JSON Lines reader reads back as equal records. */
class JsonRoundTripTest {
  private static Path dir;

  @BeforeContainer
  static void makeDir() throws IOException {
    dir = Files.createTempDirectory("json-round-trip");
  }

  @AfterContainer
  static void removeDir() throws IOException {
    try (var files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }

  @Provide
  Arbitrary<List<GenericRecord>> batches() {
    return AllTypes.arbitrary().list().ofMinSize(1).ofMaxSize(8);
  }

  @Property(tries = 300, seed = "20261203")
  void writeThenReadGivesEqualRecords(@ForAll("batches") List<GenericRecord> records) throws IOException {
    Path file = Files.createTempFile(dir, "batch", ".jsonl");
    try (OutputStream out = Files.newOutputStream(file); JsonRecordWriter w = new JsonRecordWriter(out, AllTypes.SCHEMA)) {
      for (GenericRecord r : records) {
        w.write(r);
      }
    }
    List<GenericRecord> back = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = RecordSources.open(file, InputFormat.JSON, AllTypes.SCHEMA, InputOptions.defaults())) {
      it.forEachRemaining(back::add);
    }
    assertEquals(records.size(), back.size());
    for (int i = 0; i < records.size(); i++) {
      assertEquals(records.get(i), back.get(i), () -> "differs, written as:\n" + readQuietly(file));
    }
    assertEquals(records.size(), Files.readAllLines(file).stream().filter(l -> !l.isEmpty()).count(),
        "one line per record");
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return e.toString();
    }
  }
}
