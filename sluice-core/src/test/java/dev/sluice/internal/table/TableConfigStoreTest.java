package dev.sluice.internal.table;

import dev.sluice.api.TableType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableConfigStoreTest {
  private final Storage storage = new LocalStorage();

  @TempDir
  Path dir;

  private Path props() {
    return dir.resolve(".hoodie").resolve("hoodie.properties");
  }

  private Path backup() {
    return dir.resolve(".hoodie").resolve("hoodie.properties.backup");
  }

  @Test
  void checksumMatchesTheValueObservedFromHudi() {
    assertEquals(3761586722L, TableConfigStore.checksum("", "trips"));
  }

  @Test
  void roundTripKeepsEveryPropertyAndWritesTheChecksumLast() throws IOException {
    TableConfig c = TableConfig.builder().name("trips").recordKeyFields("uuid").partitionFields("part")
        .precombineField("ts").property("custom.key", "a=b:c\\d é").build();
    TableConfigStore.write(storage, dir.toString(), c);
    List<String> lines = Files.readAllLines(props(), StandardCharsets.ISO_8859_1);
    assertTrue(lines.get(0).startsWith("#"));
    assertEquals("hoodie.table.checksum=3761586722", lines.get(lines.size() - 1));
    // java.util.Properties reads the file back to the same values (escapes included)
    Properties p = new Properties();
    p.load(new StringReader(Files.readString(props(), StandardCharsets.ISO_8859_1)));
    assertEquals("a=b:c\\d é", p.getProperty("custom.key"));
    TableConfig read = TableConfigStore.read(storage, dir.toString());
    assertEquals(c.with(TableConfig.CHECKSUM, "3761586722"), read);
    assertEquals(3761586722L, Long.parseLong(read.get(TableConfig.CHECKSUM).orElseThrow()));
  }

  @Test
  void checksumIncludesTheDatabase() {
    TableConfig c = TableConfig.builder().name("trips").databaseName("db").recordKeyFields("k").build();
    TableConfigStore.write(storage, dir.toString(), c);
    TableConfig read = TableConfigStore.read(storage, dir.toString());
    assertEquals(Long.toString(TableConfigStore.checksum("db", "trips")), read.get(TableConfig.CHECKSUM).orElseThrow());
    assertTrue(TableConfigStore.checksum("db", "trips") != 3761586722L);
  }

  @Test
  void readsTheHudiObservedFile() throws IOException {
    Files.createDirectories(props().getParent());
    Files.writeString(props(), String.join("\n",
        "#Updated at 2026-12-01T17:48:17.123Z", "#Tue Dec 01 18:48:17 CET 2026",
        "hoodie.table.type=COPY_ON_WRITE", "hoodie.table.metadata.partitions=files",
        "hoodie.table.precombine.field=ts", "hoodie.table.partition.fields=part", "hoodie.archivelog.folder=archived",
        "hoodie.timeline.layout.version=1", "hoodie.table.checksum=3761586722",
        "hoodie.datasource.write.drop.partition.columns=false", "hoodie.table.name=trips",
        "hoodie.table.recordkey.fields=uuid", "hoodie.table.metadata.partitions.inflight=",
        "hoodie.table.keygenerator.class=org.apache.hudi.keygen.SimpleAvroKeyGenerator", "hoodie.table.version=6", ""));
    TableConfig c = TableConfigStore.read(storage, dir.toString());
    assertEquals("trips", c.name());
    assertEquals(List.of("files"), c.metadataPartitions());
    assertEquals(List.of("part"), c.partitionFields());
    assertEquals(6, c.tableVersion());
    assertEquals(List.of(), c.metadataPartitionsInflight());
  }

  @Test
  void fallsBackToTheBackupWhenTheConfigIsMissing() throws IOException {
    TableConfigStore.write(storage, dir.toString(), TableConfig.builder().name("trips").recordKeyFields("k").build());
    Files.move(props(), backup());
    assertEquals("trips", TableConfigStore.read(storage, dir.toString()).name());
  }

  @Test
  void fallsBackToTheBackupWhenTheChecksumIsWrong() throws IOException {
    TableConfigStore.write(storage, dir.toString(), TableConfig.builder().name("trips").recordKeyFields("k").build());
    Files.copy(props(), backup());
    Files.writeString(props(), Files.readString(props()).replace("hoodie.table.name=trips", "hoodie.table.name=other"));
    TableConfig c = TableConfigStore.read(storage, dir.toString());
    assertEquals("trips", c.name());
  }

  @Test
  void rejectsABadChecksumWithoutBackup() throws IOException {
    TableConfigStore.write(storage, dir.toString(), TableConfig.builder().name("trips").recordKeyFields("k").build());
    Files.writeString(props(), Files.readString(props()).replace("3761586722", "12345"));
    SluiceException e = assertThrows(SluiceException.class, () -> TableConfigStore.read(storage, dir.toString()));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains("hoodie.properties"), e.getMessage());
  }

  @Test
  void missingConfigIsABadTable() {
    SluiceException e = assertThrows(SluiceException.class, () -> TableConfigStore.read(storage, dir.toString()));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains("no hoodie.properties"), e.getMessage());
  }

  @Test
  void acceptsAnOldConfigWithoutChecksum() throws IOException {
    Files.createDirectories(props().getParent());
    Files.writeString(props(), "hoodie.table.name=old\nhoodie.table.type=MERGE_ON_READ\n");
    assertEquals(TableType.MERGE_ON_READ, TableConfigStore.read(storage, dir.toString()).type());
  }

  @Test
  void updateRewritesAndRemovesTheBackup() {
    TableConfigStore.write(storage, dir.toString(), TableConfig.builder().name("trips").recordKeyFields("k").build());
    TableConfig updated = TableConfigStore.update(storage, dir.toString(), c -> c.with("hoodie.x", "1"));
    assertEquals("1", updated.get("hoodie.x").orElseThrow());
    assertFalse(Files.exists(backup()));
    TableConfig read = TableConfigStore.read(storage, dir.toString());
    assertEquals(updated, read);
    assertEquals("3761586722", read.get(TableConfig.CHECKSUM).orElseThrow());
  }

  @Test
  void updateRecoversFromAnInterruptedUpdate() throws IOException {
    TableConfigStore.write(storage, dir.toString(), TableConfig.builder().name("trips").recordKeyFields("k").build());
    // a crash after step 3 (config deleted, backup written)
    Files.move(props(), backup());
    TableConfigStore.update(storage, dir.toString(), c -> c.with("hoodie.x", "2"));
    assertFalse(Files.exists(backup()));
    assertEquals("2", TableConfigStore.read(storage, dir.toString()).get("hoodie.x").orElseThrow());
  }

  @Test
  void updateOfADamagedConfigStartsFromItsValidBackupAndKeepsItUntilTheNewConfigIsWritten() throws IOException {
    TableConfigStore.write(storage, dir.toString(), TableConfig.builder().name("trips").recordKeyFields("k")
        .build().with("hoodie.y", "kept"));
    // a damaged config beside a valid backup (an update cut short, or damage from outside): readers use the backup,
    // so an update must not delete it as a leftover of a finished update
    Files.copy(props(), backup());
    Files.writeString(props(), Files.readString(props()).replace("3761586722", "1"));
    TableConfig updated = TableConfigStore.update(storage, dir.toString(), c -> c.with("hoodie.x", "3"));
    assertEquals("kept", updated.get("hoodie.y").orElseThrow());
    assertFalse(Files.exists(backup()));
    TableConfig read = TableConfigStore.read(storage, dir.toString());
    assertEquals("3", read.get("hoodie.x").orElseThrow());
    assertEquals(TableConfigStore.ConfigState.SOUND, TableConfigStore.state(storage, dir.toString()));
  }

  @Test
  void updateOfADamagedConfigWithoutAValidBackupFailsAndLeavesBothFiles() throws IOException {
    TableConfigStore.write(storage, dir.toString(), TableConfig.builder().name("trips").recordKeyFields("k").build());
    Files.writeString(props(), Files.readString(props()).replace("3761586722", "1"));
    Files.writeString(backup(), "not a config");
    String damaged = Files.readString(props());
    SluiceException e = assertThrows(SluiceException.class,
        () -> TableConfigStore.update(storage, dir.toString(), c -> c.with("hoodie.x", "4")));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertEquals(damaged, Files.readString(props()));
    assertEquals("not a config", Files.readString(backup()), "kept for a repair");
  }

  @Test
  void updateThatChangesTheNameRecomputesTheChecksum() {
    TableConfigStore.write(storage, dir.toString(), TableConfig.builder().name("trips").recordKeyFields("k").build());
    TableConfigStore.update(storage, dir.toString(), c -> c.with(TableConfig.NAME, "rides"));
    TableConfig read = TableConfigStore.read(storage, dir.toString());
    assertEquals("rides", read.name());
    assertEquals(Long.toString(TableConfigStore.checksum("", "rides")), read.get(TableConfig.CHECKSUM).orElseThrow());
  }
  /**
   * Reads share parsed configs (ParsedConfigs) by content, so a config rewritten in place with the same length within
   * the same millisecond (only a digit changed, as a version number does) must still read as the new one.
   */
  @Test
  void aConfigRewrittenWithTheSameLengthReadsAsTheNewOne() throws IOException {
    TableConfig c = TableConfig.builder().name("trips").recordKeyFields("uuid").property("x.flag", "1").build();
    TableConfigStore.write(storage, dir.toString(), c);
    assertEquals("1", TableConfigStore.read(storage, dir.toString()).get("x.flag").orElseThrow());
    long size = Files.size(props());
    java.nio.file.attribute.FileTime mtime = Files.getLastModifiedTime(props());
    String text = Files.readString(props(), StandardCharsets.ISO_8859_1).replace("x.flag=1", "x.flag=2");
    Files.writeString(props(), text, StandardCharsets.ISO_8859_1);
    Files.setLastModifiedTime(props(), mtime);
    assertEquals(size, Files.size(props()));
    assertEquals("2", TableConfigStore.read(storage, dir.toString()).get("x.flag").orElseThrow());
    // and the first text, read again, is the first config again
    Files.writeString(props(), text.replace("x.flag=2", "x.flag=1"), StandardCharsets.ISO_8859_1);
    assertEquals("1", TableConfigStore.read(storage, dir.toString()).get("x.flag").orElseThrow());
  }

  /** A config that reads back as it is, is read once: readIfPresent (every timeline store's layout) no longer twice. */
  @Test
  void readIfPresentOpensASoundConfigOnce() {
    TableConfigStore.write(storage, dir.toString(), TableConfig.builder().name("trips").recordKeyFields("uuid").build());
    java.util.concurrent.atomic.AtomicInteger opens = new java.util.concurrent.atomic.AtomicInteger();
    Storage counting = new dev.sluice.storage.InterceptedStorage(storage, call -> {
      if (call.op() == dev.sluice.storage.InterceptedStorage.Op.OPEN) {
        opens.incrementAndGet();
      }
    });
    assertTrue(TableConfigStore.readIfPresent(counting, dir.toString()).isPresent());
    assertEquals(1, opens.get());
    assertTrue(TableConfigStore.readIfPresent(counting, dir.resolve("none").toString()).isEmpty());
  }
}
