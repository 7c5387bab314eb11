package dev.sluice.internal.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/** A partial update spilled to disk comes back with the columns it holds, so the base row still fills the others. */
class PartialLogRecordSpillTest {
  @Test
  void partialColumnsSurviveTheSpillFile() throws IOException {
    LogRecordSerializer s = new LogRecordSerializer(LogFixture.SCHEMA, Optional.of("ts"));
    GenericRecord r = LogFixture.trip("k1", "p1", 7, 3);
    LogRecord partial = new LogRecord("k1", "p1", r, 7L, false, Optional.of(Set.of("_hoodie_record_key", "ts")));
    LogRecord whole = new LogRecord("k2", "p1", LogFixture.trip("k2", "p1", 8, 4), 8L, false);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      s.write(partial, out);
      s.write(whole, out);
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
    LogRecord back = s.read(in);
    assertEquals(Optional.of(Set.of("_hoodie_record_key", "ts")), back.partialColumns());
    assertEquals(7L, back.record().get("ts"));
    assertEquals(Optional.empty(), s.read(in).partialColumns());
  }
}
