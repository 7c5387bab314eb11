package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.sluice.api.Table;
import dev.sluice.api.MergeMode;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The merge mode Sluice records at creation ({@code hoodie.compaction.payload.class}) is the one Hudi merges with:
 * an upsert from Hudi carrying a LOWER precombine value for a stored key is ignored under event-time ordering
 * (DefaultHoodieRecordPayload) and wins under commit-time ordering (OverwriteWithLatestAvroPayload); Sluice's
 * own upserts follow the same rule.
 *
 * <p>The oracle's writer takes its payload class from the table's {@code hoodie.properties} (Hudi's
 * {@code HoodieTableConfig.getPayloadClass}) and builds each incoming record's payload with it, which is how Hudi's
 * Java client decides merges (the payload instance of the incoming record combines with the stored one).
 */
class MergeModeInteropTest {

  private static final Map<String, String> NO_METADATA = Map.of("hoodie.metadata.enable", "false",
      "hoodie.index.bloom.num_entries", "1000");
  private static final String PAYLOAD_CLASS = "hoodie.compaction.payload.class";

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  @ParameterizedTest
  @EnumSource(MergeMode.class)
  void hudiHonoursTheRecordedMergeMode(MergeMode mode) {
    Path location = dir.resolve(mode.name().toLowerCase());
    // the metadata table off here as for Hudi's writer below: Hudi 0.15's writer with it off fails its archival on a
    // table that has one (a table's metadata setting stays the same across its writers)
    Table table = WideRows.create(location, KeyLayout.PARTITIONED.spec("modes", mode),
        Map.of("hoodie.metadata.enable", "false"));
    assertEquals(mode.payloadClass(), InteropChecks.hoodieProperties(location).get(PAYLOAD_CLASS),
        "payload class recorded in hoodie.properties");
    boolean eventTime = mode == MergeMode.EVENT_TIME_ORDERING;
    ExpectedTable model = KeyLayout.PARTITIONED.model(eventTime);
    List<GenericRecord> rows = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      rows.add(WideRows.row("k" + i, 10, i % 2 == 0 ? "even" : "odd", i + 1));
    }
    String insert = model.upsert(rows, rs -> table.insert(rs.iterator()).instantTime());

    // k0 lower, k1 equal (the incoming row wins a tie in both modes), k2 higher, k9 new.
    List<GenericRecord> hudiUpserts = List.of(WideRows.update(rows.get(0), 5, 20), WideRows.update(rows.get(1), 10, 21),
        WideRows.update(rows.get(2), 15, 22), WideRows.row("k9", 1, "odd", 23));
    model.upsert(hudiUpserts, rs -> oracle.write(location, "upsert", WideRows.SCHEMA, rs, NO_METADATA));
    // Sluice's own upsert with a lower value for k3.
    model.upsert(List.of(WideRows.update(rows.get(3), 2, 24)), rs -> table.upsert(rs.iterator()).instantTime());

    List<GenericRecord> hudi = oracle.read(location, "snapshot", Optional.empty());
    model.assertHeldBy(hudi, "Hudi, " + mode);
    List<GenericRecord> sluice = Rows.scan(table, Optional.empty());
    model.assertHeldBy(sluice, "Sluice, " + mode);
    Rows.assertSameRows(hudi, sluice, "Hudi vs Sluice, " + mode);

    // The model encodes the rule; make sure the lower-valued updates really took the mode's path.
    GenericRecord k0 = hudi.stream().filter(r -> "k0".equals(Rows.text(r, Rows.RECORD_KEY))).findFirst().orElseThrow();
    if (eventTime) {
      assertEquals(10L, k0.get("ts"), "event-time ordering keeps the stored k0");
      assertEquals(insert, Rows.text(k0, Rows.COMMIT_TIME), "the kept k0 keeps its commit time");
    } else {
      assertEquals(5L, k0.get("ts"), "commit-time ordering takes Hudi's later k0");
      assertNotEquals(insert, Rows.text(k0, Rows.COMMIT_TIME));
    }
  }
}
