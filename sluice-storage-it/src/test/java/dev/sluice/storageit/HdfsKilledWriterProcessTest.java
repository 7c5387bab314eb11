package dev.sluice.storageit;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.interop.RemoteHudi;
import dev.sluice.internal.log.LogBlockType;
import dev.sluice.internal.log.LogDump;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.api.CommitResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    killMidWrite("base", location, settings);

    Table reader = RemoteTables.reopen(location, settings);
    assertEquals(before, rows(reader), "readers see the table as it was");
    assertEquals(List.of(c1.instantTime()), RemoteTables.completedTimes(reader));
    List<Instant> pending = TableInternals.timeline(reader).instants().stream().filter(i -> !i.isCompleted()).toList();
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

  /**
   * Merge-on-Read: the writer dies in the middle of writing its own log file, which stays leased to the dead
   * client (HDFS recovers the lease a minute or more later). Nothing appends there: its rollback, as Hudi 0.15's for
   * a file under an APPEND marker, writes a rollback command block, which rolls over to the next log version (the
   * leased file cannot be appended to); the next delta commit writes the version after it, and the table reads the
   * same in Sluice and Hudi.
   */
  @Test
  void aWriterKilledMidLogAppendLeavesALeasedLogThatTheNextDeltaCommitsRollOverFrom(HdfsServer hdfs)
      throws IOException, InterruptedException {
    Map<String, String> settings = new HashMap<>(hdfs.clientSettings());
    // updates go to the log files of the existing file groups
    settings.put("hoodie.parquet.small.file.limit", "0");
    String location = hdfs.newFolder("tables/killed-appender");
    Table first = Tables.create(location, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(6).build(),
        RemoteTables.options(settings));
    first.insert(it(trips(0, 30, 3, 1)));
    CommitResult c2 = first.upsert(it(List.of(trip("id-000001", 2, "p1", "logged", 0))));
    Storage storage = RemoteTables.storage(location, settings);
    List<String> logsBefore = logFiles(storage, location, "p1");
    assertEquals(1, logsBefore.size(), "the first delta commit made the file group's log: " + logsBefore);
    Map<String, GenericRecord> before = rows(first);

    killMidWrite("log", location, settings);
    assertEquals(before, rows(RemoteTables.reopen(location, settings)), "readers see the table as it was");
    List<String> logsDead = logFiles(storage, location, "p1");
    assertEquals(2, logsDead.size(), "the dead writer created a log file of its own: " + logsDead);
    assertTrue(logsDead.containsAll(logsBefore), logsDead.toString());

    CommitResult c3 = RemoteTables.reopen(location, settings).upsert(it(List.of(trip("id-000001", 6, "p1", "next", 0))));
    assertEquals(1, c3.updated());
    Table after = RemoteTables.reopen(location, settings);
    List<Instant> instants = TableInternals.timeline(after).instants();
    assertTrue(instants.stream().allMatch(Instant::isCompleted), "the dead delta commit is rolled back: " + instants);
    assertTrue(instants.stream().anyMatch(i -> i.action() == Action.ROLLBACK), instants.toString());
    List<String> logsAfter = logFiles(storage, location, "p1");
    // the dead file is left as it is (a cut block reads as corrupt and is skipped); the rollback's command block
    // takes the next version, the next delta commit the one after
    assertEquals(4, logsAfter.size(), "the leased log file is left as it is and new versions follow: " + logsAfter);
    assertTrue(logsAfter.get(2).contains(".log.3_") && logsAfter.get(3).contains(".log.4_"), logsAfter.toString());
    assertEquals(List.of(LogBlockType.COMMAND_BLOCK), blocks(storage, location, logsAfter.get(2)), "the rollback");
    assertEquals(List.of(LogBlockType.AVRO_DATA_BLOCK), blocks(storage, location, logsAfter.get(3)),
        "the next delta commit's data");

    Map<String, GenericRecord> rows = rows(after);
    assertEquals(30, rows.size());
    assertEquals("next", rows.get("id-000001").get("name").toString());
    RemoteHudi.Reads hudi = RemoteHudi.locate(settings).reads(location, List.of(c2.instantTime()));
    assertEquals(HudiReadsScenarios.sluiceView(after, Optional.empty()), HudiReadsScenarios.view(hudi.latest()));
    assertEquals(HudiReadsScenarios.sluiceView(after, Optional.of(c2.instantTime())),
        HudiReadsScenarios.view(hudi.asOf().get(0)));
    assertEquals(instants.stream().map(Instant::time).toList(), HudiReadsScenarios.completed(hudi.timeline()),
        "Hudi's timeline, the rollback included");
  }

  private static List<LogBlockType> blocks(Storage storage, String location, String log) throws IOException {
    return LogDump.list(storage, StoragePaths.join(location, "p1", log)).stream().map(LogDump.BlockSummary::type)
        .toList();
  }

  private static List<String> logFiles(Storage storage, String location, String partition) {
    return RemoteTables.names(storage, StoragePaths.join(location, partition)).stream()
        .filter(n -> FileNames.parseLog(n).isPresent()).sorted().toList();
  }

  /** Runs {@link KilledWriterMain} in a child JVM and SIGKILLs it once it is in the middle of a data file. */
  private static void killMidWrite(String file, String location, Map<String, String> settings)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        KilledWriterMain.class.getName(), file, location));
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
  }
}
