package dev.sluice.api;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.crash.TableChecks;
import dev.sluice.internal.log.LogBlockType;
import dev.sluice.internal.log.LogDump.BlockSummary;
import dev.sluice.storage.AppendingStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged tables: each damage gives a clear error naming the file, and readers skip only what Hudi 0.15 skips (a
 * corrupt log block); nothing is written by a write that fails on the damage.
 */
class DamagedTableTest {
  private static final Map<String, String> OPTIONS = Map.of("hoodie.index.bloom.num_entries", "1000",
      "sluice.write.parallelism", "1", "hoodie.parquet.small.file.limit", "0");

  @TempDir
  Path dir;

  private Table cow() {
    return cow(TableSpec.DEFAULT_TABLE_VERSION);
  }

  private Table cow(int version) {
    Table t = Tables.create(dir.toString(), TripFixture.spec().tableVersion(version).build(), Config.of(OPTIONS));
    t.insert(it(trips(0, 20, 2, 1)));
    return t;
  }

  @Test
  void aPathThatIsNotATableIsNamed() throws IOException {
    Files.createDirectories(dir.resolve("plain/folder"));
    SluiceException e = assertThrows(SluiceException.class, () -> Tables.open(dir.resolve("plain").toString()));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains(dir.resolve("plain").toString()) && e.getMessage().contains("hoodie.properties"),
        e.getMessage());
  }

  @Test
  void aConfigWithABadChecksumIsReadFromItsBackupAndWithoutOneIsRefused() throws IOException {
    Table t = cow();
    Map<String, GenericRecord> before = rows(t);
    Path props = dir.resolve(".hoodie/hoodie.properties");
    String good = Files.readString(props, StandardCharsets.ISO_8859_1);
    Files.writeString(dir.resolve(".hoodie/hoodie.properties.backup"), good, StandardCharsets.ISO_8859_1);
    Files.writeString(props, good.replaceAll("hoodie.table.checksum=\\d+", "hoodie.table.checksum=12345"),
        StandardCharsets.ISO_8859_1);
    assertEquals(before, rows(Tables.open(dir.toString(), Config.of(OPTIONS))), "Hudi's recovery: the backup is used");
    Tables.open(dir.toString(), Config.of(OPTIONS)).upsert(it(List.of(trip("id-000001", 5, "p1", "w", 1))));
    assertTrue(Files.readString(props, StandardCharsets.ISO_8859_1).contains("hoodie.table.checksum="), "still a config");

    Files.delete(dir.resolve(".hoodie/hoodie.properties.backup"));
    Files.writeString(props, good.replaceAll("hoodie.table.checksum=\\d+", "hoodie.table.checksum=12345"),
        StandardCharsets.ISO_8859_1);
    SluiceException e = assertThrows(SluiceException.class, () -> Tables.open(dir.toString()));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains(props.toString()) && e.getMessage().contains("checksum"), e.getMessage());
  }

  @Test
  void aTruncatedBaseFileFailsReadsAndWritesNamingItAndTheWriteLeavesNothing() throws IOException {
    Table t = cow();
    String victim = TableChecks.dataFiles(dir).stream().filter(f -> f.startsWith("p0/")).findFirst().orElseThrow();
    Path file = dir.resolve(victim);
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    SluiceException read = assertThrows(SluiceException.class, () -> rows(t));
    assertEquals(SluiceException.Kind.BAD_TABLE, read.kind(), read.getMessage());
    assertTrue(read.getMessage().contains(victim.substring(3)), read.getMessage());
    var filesBefore = TableChecks.dataFiles(dir);
    SluiceException write = assertThrows(SluiceException.class,
        () -> t.upsert(it(List.of(trip("id-000000", 5, "p0", "w", 1)))));
    assertTrue(write.getMessage().contains(victim.substring(3)), write.getMessage());
    assertEquals(filesBefore, TableChecks.dataFiles(dir), "the failed write's files were rolled back");
    assertTrue(t.timeline().inflightWrites().isEmpty());
  }

  @Test
  void aCorruptLogBlockInTheMiddleIsSkippedAndTheBlocksAroundItAreRead() throws IOException {
    Table t = Tables.create(new AppendingStorage(new LocalStorage()), dir.toString(), MorFixture.spec().build(),
        Config.of(OPTIONS));
    t.insert(it(trips(0, 6, 1, 10)));
    t.upsert(it(List.of(trip("id-000000", 11, "p0", "first", 0))));
    t.upsert(it(List.of(trip("id-000001", 11, "p0", "second", 0))));
    t.upsert(it(List.of(trip("id-000002", 11, "p0", "third", 0))));
    List<String> logs = MorFixture.logFiles(dir);
    assertEquals(3, logs.size(), "a log file per delta commit: " + logs);
    List<BlockSummary> blocks = MorFixture.blocks(dir, logs.get(1));
    assertEquals(1, blocks.size());
    // damage the middle file's block length field (right after its magic): the framing check fails there
    try (RandomAccessFile raf = new RandomAccessFile(dir.resolve(logs.get(1)).toFile(), "rw")) {
      raf.seek(blocks.get(0).offset() + 6);
      raf.writeLong(7);
    }
    assertEquals(LogBlockType.CORRUPT_BLOCK, MorFixture.blocks(dir, logs.get(1)).get(0).type());
    Map<String, GenericRecord> rows = rows(Tables.open(dir.toString(), Config.of(OPTIONS)));
    assertEquals("first", rows.get("id-000000").get("name").toString());
    assertEquals("name-1", rows.get("id-000001").get("name").toString(), "the corrupt block's update is not read");
    assertEquals("third", rows.get("id-000002").get("name").toString(), "the block after it is");
    assertEquals(6, rows.size());
  }

  @Test
  void aCommitFileWithBrokenJsonIsNamedAndCanBeRolledBack() throws IOException {
    // version 6's JSON commit file (version 9's are Avro containers under .hoodie/timeline)
    Table t = cow(6);
    String c2 = t.upsert(it(List.of(trip("id-000000", 5, "p0", "w", 1)))).instantTime();
    Path commit = dir.resolve(".hoodie/" + c2 + ".commit");
    Files.writeString(commit, "{\"partitionToWriteStats\": {\"p0\": [ {\"fileId\": ");
    SluiceException e = assertThrows(SluiceException.class, () -> Tables.open(dir.toString()).schema());
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains(commit.toString()) && e.getMessage().contains("not valid JSON"), e.getMessage());
    Table again = Tables.open(dir.toString(), Config.of(OPTIONS));
    again.rollback(c2);
    assertTrue(again.timeline().filter(i -> i.time().equals(c2) && i.action() == Action.COMMIT).isEmpty());
    assertEquals(20, rows(again).size());
    assertTrue(TableChecks.dataFiles(dir).stream().noneMatch(f -> f.contains(c2)));
    Instant rb = again.timeline().filter(i -> i.action() == Action.ROLLBACK).lastInstant().orElseThrow();
    assertTrue(rb.isCompleted());
  }

  @Test
  void aDeltaCommitWithBrokenJsonIsRolledBackByDeletingTheLogFileFoundByReadingTheLogs() throws IOException {
    Table t = Tables.create(dir.toString(), MorFixture.spec().build(), Config.of(OPTIONS));
    t.insert(it(trips(0, 6, 1, 10)));
    Map<String, GenericRecord> before = rows(t);
    String c2 = t.upsert(it(List.of(trip("id-000000", 11, "p0", "logged", 0)))).instantTime();
    Files.writeString(dir.resolve(".hoodie/" + c2 + ".deltacommit"), "[broken");
    dev.sluice.internal.timeline.avro.RollbackMetadata md = TableInternals.actions(Tables.open(dir.toString(),
        Config.of(OPTIONS))).rollback(c2);
    long blocks = md.partitionMetadata().values().stream().mapToLong(p -> p.rollbackLogFiles().size()).sum();
    assertEquals(0, blocks, "no rollback block: " + md);
    List<String> deleted = md.partitionMetadata().values().stream().flatMap(p -> p.successDeleteFiles().stream()).toList();
    assertEquals(1, deleted.size(), "the log file holding only the broken commit's block is deleted: " + md);
    assertTrue(deleted.get(0).contains(".log.") && !Files.exists(Path.of(deleted.get(0))), deleted.toString());
    assertEquals(before, rows(Tables.open(dir.toString(), Config.of(OPTIONS))));
  }
}
