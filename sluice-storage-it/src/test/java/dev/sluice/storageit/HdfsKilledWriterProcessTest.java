package dev.sluice.storageit;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.timeline.Instant;
import dev.sluice.write.CommitResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A writer process killed ({@code SIGKILL}) in the middle of writing a data file to HDFS: its file stays under
 * construction, leased to a client that no longer exists, and its instant stays inflight. Readers never see it;
 * the next writer goes ahead.
 */
@ExtendWith(Servers.class)
class HdfsKilledWriterProcessTest {
  @Test
  void aKilledWriterProcessIsNeverSeenAndTheNextWriteSucceeds(HdfsServer hdfs) throws IOException, InterruptedException {
    Map<String, String> settings = hdfs.clientSettings();
    String location = hdfs.newFolder("tables/killed-process");
    Table first = RemoteTables.createTrips(location, settings);
    CommitResult c1 = first.insert(it(trips(0, 30, 3, 1)));
    Map<String, GenericRecord> before = rows(first);

    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        KilledWriterMain.class.getName(), "base", location));
    settings.forEach((k, v) -> command.add(k + "=" + v));
    Process writer = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
      String line = out.readLine();
      assertEquals(KilledWriterMain.READY, line, "the writer reached the middle of a data file");
      writer.destroyForcibly();
      assertTrue(writer.waitFor(30, TimeUnit.SECONDS));
    } finally {
      writer.destroyForcibly();
    }

    Table reader = RemoteTables.reopen(location, settings);
    assertEquals(before, rows(reader), "readers see the table as it was");
    assertEquals(List.of(c1.instantTime()), RemoteTables.completedTimes(reader));
    List<Instant> pending = reader.timeline().instants().stream().filter(i -> !i.isCompleted()).toList();
    assertEquals(1, pending.size(), "the dead writer's instant is left pending: " + pending);
    List<String> leftovers = RemoteTables.dataFilesOf(RemoteTables.storage(location, settings), location,
        pending.get(0).time(), CopyOnWriteScenarios.PARTS);
    assertFalse(leftovers.isEmpty(), "its file under construction is there");

    CommitResult c2 = RemoteTables.reopen(location, settings).upsert(it(KilledWriterMain.batch()));
    assertEquals(30, c2.inserted());
    assertEquals(1, c2.updated());
    Map<String, GenericRecord> after = rows(RemoteTables.reopen(location, settings));
    assertEquals(60, after.size());
    assertEquals("lost", after.get("id-000001").get("name").toString());
  }
}
