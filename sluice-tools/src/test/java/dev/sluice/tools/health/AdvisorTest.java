package dev.sluice.tools.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.CommitInfo;
import dev.sluice.api.WriteStatInfo;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Advisor}: which table type suits the writes a table saw, or a sample of the writes to come. */
class AdvisorTest {
  @TempDir
  Path dir;

  @Test
  void scatteredSmallUpsertsOnCopyOnWriteGetMergeOnRead() {
    Table t = HealthTables.create(dir, TableType.COPY_ON_WRITE, Map.of());
    String u1 = t.upsert(HealthTables.scattered(10).iterator()).instantTime();
    String u2 = t.upsert(HealthTables.scattered(11).iterator()).instantTime();
    Advice a = Advisor.advise(t, Optional.empty(), Clock.systemUTC());
    assertEquals(TableType.MERGE_ON_READ, a.recommendation(), a.reason());
    assertEquals(TableType.COPY_ON_WRITE, a.current());
    assertEquals("history", a.basis());
    WritePattern h = a.history();
    assertEquals(2, h.commits(), "the two upserts; the bulk insert (the initial load) is left out");
    assertEquals(2L * HealthTables.GROUPS, h.updated());
    assertEquals(0, h.inserted());
    assertEquals(HealthTables.GROUPS, h.fileGroupsTouchedPerCommit(), 1e-9);
    // measured: bytes of the rewrites over the updates they carried, straight from the commit metadata
    long rewriteBytes = 0;
    long updates = 0;
    for (String u : List.of(u1, u2)) {
      CommitInfo md = HealthTables.metadata(t, u);
      for (WriteStatInfo s : md.stats()) {
        rewriteBytes += s.totalWriteBytes();
        updates += s.numUpdateWrites();
      }
    }
    assertEquals((double) rewriteBytes / updates, h.cowBytesPerChangedRecord().getAsDouble(), 1e-9);
    assertEquals(h.cowBytesPerChangedRecord().getAsDouble() / h.morBytesPerChangedRecord().getAsDouble(),
        h.rewriteRatio().getAsDouble(), 1e-9);
    assertTrue(h.rewriteRatio().getAsDouble() >= a.breakEven(), a.reason());
    assertEquals(HealthTables.GROUPS, h.fileGroups());
    assertEquals(1.0, h.changedRecordsPerFileGroup().getAsDouble(), 1e-9);
    assertTrue(a.reason().contains(String.format("%,.0f bytes per update or delete", h.cowBytesPerChangedRecord()
        .getAsDouble())), a.reason());
    assertTrue(a.reason().contains(String.format("%.1fx", h.rewriteRatio().getAsDouble())), a.reason());
  }

  @Test
  void bulkRewritesOnCopyOnWriteStayCopyOnWrite() {
    Table t = HealthTables.create(dir, TableType.COPY_ON_WRITE, Map.of());
    t.upsert(HealthTables.everything(10).iterator());
    Advice a = Advisor.advise(t, Optional.empty(), Clock.systemUTC());
    assertEquals(TableType.COPY_ON_WRITE, a.recommendation(), a.reason());
    WritePattern h = a.history();
    assertEquals(HealthTables.GROUPS * HealthTables.PER_GROUP, h.updated());
    assertEquals(HealthTables.PER_GROUP, h.changedRecordsPerFileGroup().getAsDouble(), 1e-9);
    assertTrue(h.rewriteRatio().getAsDouble() < a.breakEven(), a.reason());
  }

  @Test
  void sampleIsTaggedAgainstTheIndexWithoutWriting() {
    Table t = HealthTables.create(dir, TableType.COPY_ON_WRITE, Map.of());
    int instants = t.inspect().timeline().size();
    Advice scattered = Advisor.advise(t, Optional.of(HealthTables.scattered(10).iterator()), Clock.systemUTC());
    assertEquals(instants, t.inspect().timeline().size(), "nothing written");
    assertEquals("sample", scattered.basis());
    assertEquals(TableType.MERGE_ON_READ, scattered.recommendation(), scattered.reason());
    SampleEstimate e = scattered.sample().orElseThrow();
    assertEquals(HealthTables.GROUPS, e.updates());
    assertEquals(0, e.inserts());
    assertEquals(HealthTables.GROUPS, e.fileGroupsTouched());
    long baseBytes = HealthTables.files(dir, ".parquet").values().stream().mapToLong(Long::longValue).sum();
    assertEquals(baseBytes, e.cowBytesRewritten(), "a Copy-on-Write upsert rewrites every base file");

    List<org.apache.avro.generic.GenericRecord> few = HealthTables.clustered(10);
    few.add(dev.sluice.api.TripFixture.trip("new-key", 10, "p0", "n", 1));
    Advice clustered = Advisor.advise(t, Optional.of(few.iterator()), Clock.systemUTC());
    SampleEstimate c = clustered.sample().orElseThrow();
    assertEquals(1, c.fileGroupsTouched());
    assertEquals(1, c.inserts());
    assertEquals(HealthTables.GROUPS, c.updates());
    Set<String> firstGroup = HealthTables.files(dir, ".parquet").keySet().stream().filter(n -> n.contains("-0_0-0-0_"))
        .collect(Collectors.toSet());
    assertEquals(1, firstGroup.size(), firstGroup.toString());
    assertEquals(HealthTables.files(dir, ".parquet").get(firstGroup.iterator().next()), c.cowBytesRewritten());
  }

  @Test
  void mergeOnReadHistoryMeasuresLogAppends() {
    Table t = HealthTables.create(dir, TableType.MERGE_ON_READ, Map.of());
    String u = t.upsert(HealthTables.scattered(10).iterator()).instantTime();
    Advice a = Advisor.advise(t, Optional.empty(), Clock.systemUTC());
    assertEquals(TableType.MERGE_ON_READ, a.recommendation(), a.reason());
    CommitInfo md = HealthTables.metadata(t, u);
    long logBytes = md.stats().stream().filter(WriteStatInfo::delta).mapToLong(WriteStatInfo::totalWriteBytes).sum();
    assertEquals((double) logBytes / HealthTables.GROUPS, a.history().morBytesPerChangedRecord().getAsDouble(), 1e-9);
    assertTrue(a.reason().contains("Logs grew"), a.reason());
  }
}
