package dev.sluice.internal.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.MergeMode;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.storage.LocalStorage;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;

/** Which base file column a merged slice matches log records by: the record key column or the plain key field. */
class MergedSliceReaderKeyColumnTest {
  private static final Schema USER = SchemaBuilder.record("r").fields()
      .requiredString("id").optionalString("nid").requiredLong("num").requiredString("v").endRecord();
  private static final Schema FILE = MetaFields.withMetaFields(USER);
  private static final Schema OUTPUT = SchemaBuilder.record("r").fields().requiredString("v").endRecord();

  private static String keyColumn(Optional<String> plainKey, Optional<Schema> output, boolean partial) {
    LogMerge merge = new LogMerge(Timeline.empty(), "", Optional.empty(), new RecordMerger(MergeMode.COMMIT_TIME_ORDERING),
        1 << 20, Path.of("/tmp"), plainKey);
    return new MergedSliceReader(new LocalStorage(), FILE, merge, b -> { }, output).keyColumn(FILE, partial);
  }

  @Test
  void thePlainKeyFieldReplacesTheRecordKeyColumnWhenNothingShowsIt() {
    assertEquals("id", keyColumn(Optional.of("id"), Optional.of(OUTPUT), false));
    assertEquals("nid", keyColumn(Optional.of("nid"), Optional.of(OUTPUT), false), "an optional string field");
  }

  @Test
  void theRecordKeyColumnWhereverTheFieldCannotStandInForIt() {
    String meta = MetaFields.RECORD_KEY;
    assertEquals(meta, keyColumn(Optional.empty(), Optional.of(OUTPUT), false), "no plain key field");
    assertEquals(meta, keyColumn(Optional.of("num"), Optional.of(OUTPUT), false), "a long field's key is its text");
    assertEquals(meta, keyColumn(Optional.of("gone"), Optional.of(OUTPUT), false), "a file without the field");
    assertEquals(meta, keyColumn(Optional.of("id"), Optional.of(FILE), false), "the output shows the meta column");
    assertEquals(meta, keyColumn(Optional.of("id"), Optional.empty(), false), "rows copied out by name");
    assertEquals(meta, keyColumn(Optional.of("id"), Optional.of(OUTPUT), true), "a partial update copies the row");
  }
}
