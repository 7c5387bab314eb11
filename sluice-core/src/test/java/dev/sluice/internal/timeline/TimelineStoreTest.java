package dev.sluice.internal.timeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelineStoreTest {
  @TempDir
  Path dir;

  private TimelineStore store;

  @BeforeEach
  void setUp() throws IOException {
    Files.createDirectories(dir.resolve(".hoodie"));
    store = new TimelineStore(new LocalStorage(), dir.toString());
  }

  private boolean exists(String name) {
    return Files.exists(dir.resolve(".hoodie").resolve(name));
  }

  @Test
  void transitionsKeepEarlierStateFiles() {
    Instant req = Instant.requested("001", Action.COMMIT);
    store.createRequested(req, new byte[0]);
    assertEquals(List.of(req), store.load().instants());
    Instant inflight = store.transitionToInflight(req, "workload".getBytes(StandardCharsets.UTF_8));
    assertEquals(Instant.inflight("001", Action.COMMIT), inflight);
    assertEquals(List.of(inflight), store.load().instants());
    byte[] json = CommitMetadata.empty().toJson();
    Instant done = store.complete(inflight, json);
    assertEquals(Instant.completed("001", Action.COMMIT), done);
    assertTrue(exists("001.commit.requested"));
    assertTrue(exists("001.inflight"));
    assertTrue(exists("001.commit"));
    assertEquals(List.of(done), store.load().instants());
    assertArrayEquals(json, store.read(done));
    assertArrayEquals("workload".getBytes(StandardCharsets.UTF_8), store.read(inflight));
  }

  @Test
  void aTimeAnotherActionHoldsIsAConflictAndLeavesNoFile() throws IOException {
    // another process's rollback took the millisecond this commit wants
    Files.createFile(dir.resolve(".hoodie/20261203172606805.rollback.requested"));
    SluiceException e = assertThrows(SluiceException.class,
        () -> store.createRequested(Instant.requested("20261203172606805", Action.COMMIT), new byte[0], true));
    assertEquals(SluiceException.Kind.CONFLICT, e.kind());
    assertTrue(e.getMessage().contains("20261203172606805.rollback.requested has the same instant time"), e.getMessage());
    assertFalse(exists("20261203172606805.commit.requested"), "the clashing request is removed again");
    // one process alone never repeats a time: without other writers only the name is checked
    store.createRequested(Instant.requested("20261203172606805", Action.COMMIT), new byte[0]);
    assertTrue(exists("20261203172606805.commit.requested"));
    // a savepoint shares its commit's time by design; only new instants are checked
    store.createRequested(Instant.requested("20261203172606806", Action.COMMIT), new byte[0], true);
    store.createInflight(Instant.inflight("20261203172606806", Action.SAVEPOINT), new byte[0]);
    assertTrue(exists("20261203172606806.savepoint.inflight"));
  }

  @Test
  void aNewTimeSkipsTimesThatAreTaken() throws IOException {
    Files.createFile(dir.resolve(".hoodie/20261203172606802.clean.requested"));
    Timeline known = Timeline.of(List.of(Instant.completed("20261203172606801", Action.COMMIT)));
    java.util.Iterator<String> times = List.of("20261203172606801", "20261203172606802", "20261203172606803").iterator();
    Instant r = store.createRequestedAtNewTime(Action.ROLLBACK, times::next, known, new byte[] {7}, true);
    assertEquals(Instant.requested("20261203172606803", Action.ROLLBACK), r);
    assertArrayEquals(new byte[] {7}, store.read(r));
    assertFalse(exists("20261203172606801.rollback.requested"), "a time the loaded timeline has is not tried");
    assertFalse(exists("20261203172606802.rollback.requested"), "a time another process took is given up");
  }

  @Test
  void completingWhenTheCompletedFileExistsIsAConflict() throws IOException {
    Instant req = Instant.requested("002", Action.DELTACOMMIT);
    store.createRequested(req, new byte[0]);
    Instant inflight = store.transitionToInflight(req, new byte[0]);
    Files.writeString(dir.resolve(".hoodie/002.deltacommit"), "other writer");
    SluiceException e = assertThrows(SluiceException.class, () -> store.complete(inflight, new byte[] {1}));
    assertEquals(SluiceException.Kind.CONFLICT, e.kind());
    assertEquals("other writer", Files.readString(dir.resolve(".hoodie/002.deltacommit")), "never overwritten");
  }

  @Test
  void transitionsNeedThePreviousState() {
    SluiceException e = assertThrows(SluiceException.class,
        () -> store.transitionToInflight(Instant.requested("003", Action.COMMIT), new byte[0]));
    assertEquals(SluiceException.Kind.CONFLICT, e.kind());
    e = assertThrows(SluiceException.class, () -> store.complete(Instant.inflight("003", Action.COMMIT), new byte[0]));
    assertEquals(SluiceException.Kind.CONFLICT, e.kind());
    store.createRequested(Instant.requested("003", Action.COMMIT), new byte[0]);
    e = assertThrows(SluiceException.class, () -> store.createRequested(Instant.requested("003", Action.COMMIT), new byte[0]));
    assertEquals(SluiceException.Kind.CONFLICT, e.kind());
  }

  @Test
  void compactionCompletesAsACommit() {
    Instant req = Instant.requested("004", Action.COMPACTION);
    store.createRequested(req, new byte[] {42});
    Instant inflight = store.transitionToInflight(req, new byte[0]);
    assertTrue(exists("004.compaction.inflight"));
    assertEquals(List.of(Instant.inflight("004", Action.COMPACTION)), store.load().pendingCompactions());
    Instant done = store.complete(inflight, new CommitMetadata(Map.of(), true, Map.of(), WriteOperationType.COMPACT).toJson());
    assertEquals(Instant.completed("004", Action.COMMIT), done);
    assertTrue(exists("004.commit"));
    Timeline t = store.load();
    assertEquals(List.of(done), t.instants());
    assertTrue(t.isCompaction("004"));
    assertTrue(store.readCommitMetadata(done).orElseThrow().compacted());
  }

  @Test
  void deleteInstantFilesRemovesEveryState() {
    Instant req = Instant.requested("005", Action.DELTACOMMIT);
    store.createRequested(req, new byte[0]);
    store.transitionToInflight(req, new byte[0]);
    store.createRequested(Instant.requested("006", Action.COMMIT), new byte[0]);
    store.deleteInstantFiles(Instant.inflight("005", Action.DELTACOMMIT));
    assertFalse(exists("005.deltacommit.requested"));
    assertFalse(exists("005.deltacommit.inflight"));
    assertEquals(List.of(Instant.requested("006", Action.COMMIT)), store.load().instants());
  }

  @Test
  void readIfExistsIsEmptyForMissingFiles() {
    assertEquals(Optional.empty(), store.readIfExists(Instant.completed("007", Action.COMMIT)));
    assertEquals(Optional.empty(), store.readCommitMetadata(Instant.completed("007", Action.COMMIT)));
    assertThrows(SluiceException.class, () -> store.read(Instant.completed("007", Action.COMMIT)));
  }

  @Test
  void brokenCommitJsonIsABadTableNamingTheFile() throws IOException {
    Files.writeString(dir.resolve(".hoodie/008.commit"), "{ \"partitionToWriteStats\" : ");
    SluiceException e = assertThrows(SluiceException.class,
        () -> store.readCommitMetadata(Instant.completed("008", Action.COMMIT)));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains("008.commit"), e.getMessage());
  }

  @Test
  void emptyCommitFileReadsAsEmptyMetadata() throws IOException {
    Files.write(dir.resolve(".hoodie/009.commit"), new byte[0]);
    CommitMetadata md = store.readCommitMetadata(Instant.completed("009", Action.COMMIT)).orElseThrow();
    assertEquals(WriteOperationType.UNKNOWN, md.operationType());
    assertTrue(md.allStats().isEmpty());
  }

  @Test
  void loadIgnoresFoldersAndOtherFiles() throws IOException {
    Files.createDirectories(dir.resolve(".hoodie/.aux"));
    Files.createDirectories(dir.resolve(".hoodie/archived"));
    Files.writeString(dir.resolve(".hoodie/hoodie.properties"), "hoodie.table.name=t\nhoodie.table.version=6\n");
    Files.write(dir.resolve(".hoodie/.010.commit.crc"), new byte[8]);
    Files.write(dir.resolve(".hoodie/010.commit"), new byte[0]);
    assertEquals(List.of(Instant.completed("010", Action.COMMIT)), store.load().instants());
  }

  @Test
  void loadOfATableWithoutTimelineFolderIsEmpty() {
    TimelineStore none = new TimelineStore(new LocalStorage(), dir.resolve("nothing").toString());
    assertTrue(none.load().isEmpty());
  }
}
