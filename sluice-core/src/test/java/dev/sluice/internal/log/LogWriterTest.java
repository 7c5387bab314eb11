package dev.sluice.internal.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.storage.AppendRefusedException;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which file a writer picks, appends and roll-over (reference §5). */
class LogWriterTest {
  @TempDir
  Path dir;

  private static List<LogBlock> block(String instant, int records) {
    return List.of(DataBlock.of(instant, LogFixture.SCHEMA, LogFixture.trips("k" + instant + "-", records, 1)));
  }

  private LogWriter writer(Storage storage, String token, long maxSize) {
    return LogWriter.open(storage, dir.toString(), LogFixture.FILE_ID, LogFixture.BASE, token, maxSize);
  }

  private List<String> logNames(Storage storage) throws IOException {
    return LogFixture.logFiles(storage, dir.toString()).stream().map(LogFile::fileName).toList();
  }

  @Test
  void withoutAppendEverySessionMakesTheNextVersionWithItsOwnToken() throws IOException {
    LocalStorage storage = new LocalStorage();
    AppendResult a;
    AppendResult b;
    AppendResult c;
    try (LogWriter w = writer(storage, "0-0-0", 1 << 30)) {
      a = w.appendBlocks(block("001", 2));
      // within one session appends go to the open file
      b = w.appendBlocks(block("001", 1));
    }
    try (LogWriter w = writer(storage, "3-7-11", 1 << 30)) {
      c = w.appendBlocks(block("002", 1));
    }
    assertEquals(FileNames.logFileName(LogFixture.FILE_ID, LogFixture.BASE, 1, "0-0-0"), a.file().fileName());
    assertEquals(a.file().path(), b.file().path());
    assertEquals(a.size(), b.offset());
    assertEquals(a.size() + b.size(), b.file().size());
    assertEquals(FileNames.logFileName(LogFixture.FILE_ID, LogFixture.BASE, 2, "3-7-11"), c.file().fileName());
    assertEquals(2, c.version());
    assertEquals(0, c.offset());
    assertEquals(List.of(a.file().fileName(), c.file().fileName()), logNames(storage));
    assertEquals(2, LogFixture.readAll(storage, a.file().path()).size());
    assertEquals(1, LogFixture.readAll(storage, c.file().path()).size());
  }

  @Test
  void withAppendTheLatestFileGrowsWhateverItsToken() throws IOException {
    Storage storage = LogFixture.appendingStorage();
    AppendResult a;
    AppendResult b;
    try (LogWriter w = writer(storage, "0-0-0", 1 << 30)) {
      a = w.appendBlocks(block("001", 2));
    }
    try (LogWriter w = writer(storage, "5-5-5", 1 << 30)) {
      b = w.appendBlocks(block("002", 3));
    }
    assertEquals(a.file().path(), b.file().path());
    assertEquals(a.size(), b.offset());
    assertEquals(a.size() + b.size(), Files.size(Path.of(b.file().path())));
    List<LogBlock> blocks = LogFixture.readAll(storage, b.file().path());
    assertEquals(List.of(Optional.of("001"), Optional.of("002")), blocks.stream().map(LogBlock::instantTime).toList());
    assertEquals(List.of(a.file().fileName()), logNames(storage));
  }

  @Test
  void aMountThatCannotAppendAfterAllRollsOver() throws IOException {
    Storage refusing = LogFixture.appendsFailWith(path -> new IOException("Append is not supported by this mount"));
    try (LogWriter w = writer(refusing, "0-0-0", 1 << 30)) {
      w.appendBlocks(block("001", 1));
    }
    AppendResult b;
    try (LogWriter w = writer(refusing, "0-0-0", 1 << 30)) {
      b = w.appendBlocks(block("002", 1));
    }
    assertEquals(2, b.version());
  }

  @Test
  void anAppendTheStoreRefusesRollsOverToANewVersionAndLeavesTheHeldFileAlone() throws IOException {
    // HDFS refuses appends to a file still leased to a writer that died mid-append
    Storage leased = LogFixture.appendsFailWith(
        path -> new AppendRefusedException(path, "the file is leased to another client", null));
    AppendResult a;
    try (LogWriter w = writer(leased, "0-0-0", 1 << 30)) {
      a = w.appendBlocks(block("001", 1));
    }
    long heldSize = Files.size(Path.of(a.file().path()));
    AppendResult b;
    AppendResult c;
    try (LogWriter w = writer(leased, "4-4-4", 1 << 30)) {
      b = w.appendBlocks(block("002", 2));
      // the new file is this session's own: later appends of the session go to it
      c = w.appendBlocks(block("003", 1));
    }
    assertEquals(2, b.version());
    assertEquals(FileNames.logFileName(LogFixture.FILE_ID, LogFixture.BASE, 2, "4-4-4"), b.file().fileName());
    assertEquals(0, b.offset());
    assertEquals(b.file().path(), c.file().path());
    assertEquals(heldSize, Files.size(Path.of(a.file().path())), "the refused file is not touched");
    assertEquals(List.of(a.file().fileName(), b.file().fileName()), logNames(leased));
    assertEquals(List.of(Optional.of("002"), Optional.of("003")),
        LogFixture.readAll(leased, b.file().path()).stream().map(LogBlock::instantTime).toList());
  }

  @Test
  void anAppendFailureOtherThanUnsupportedIsAStorageError() {
    Storage failing = LogFixture.appendsFailWith(path -> new IOException("disk on fire"));
    try (LogWriter w = writer(failing, "0-0-0", 1 << 30)) {
      w.appendBlocks(block("001", 1));
    }
    try (LogWriter w = writer(failing, "0-0-0", 1 << 30)) {
      SluiceException e = assertThrows(SluiceException.class, () -> w.appendBlocks(block("002", 1)));
      assertEquals(SluiceException.Kind.STORAGE, e.kind());
      assertTrue(e.getMessage().contains("disk on fire"));
    }
  }

  @Test
  void aFileBeyondTheSizeLimitRollsOverAfterTheAppend() throws IOException {
    Storage storage = LogFixture.appendingStorage();
    AppendResult small;
    AppendResult big;
    AppendResult next;
    AppendResult after;
    try (LogWriter w = writer(storage, "0-0-0", 10_000)) {
      small = w.appendBlocks(block("001", 1));
      big = w.appendBlocks(block("001", 100));
      next = w.appendBlocks(block("001", 1));
      after = w.appendBlocks(block("001", 1));
    }
    assertTrue(small.size() < 10_000 && small.size() + big.size() > 10_000, "sizes " + small.size() + ", " + big.size());
    assertEquals(1, small.version());
    assertEquals(1, big.version(), "the append that crosses the limit still goes to the file");
    assertEquals(small.size(), big.offset());
    assertEquals(2, next.version());
    assertEquals(0, next.offset());
    assertEquals(FileNames.logFileName(LogFixture.FILE_ID, LogFixture.BASE, 2, "0-0-0"), next.file().fileName());
    assertEquals(2, after.version());
    assertEquals(next.size(), after.offset());
  }

  @Test
  void aSessionOpeningAFileAlreadyPastTheLimitStartsTheNextVersion() throws IOException {
    Storage storage = LogFixture.appendingStorage();
    AppendResult first;
    try (LogWriter w = writer(storage, "0-0-0", 10_000)) {
      first = w.appendBlocks(block("001", 100));
    }
    assertTrue(first.file().size() > 10_000);
    AppendResult second;
    try (LogWriter w = writer(storage, "3-0-0", 10_000)) {
      second = w.appendBlocks(block("002", 1));
    }
    assertEquals(2, second.version());
    assertEquals(FileNames.logFileName(LogFixture.FILE_ID, LogFixture.BASE, 2, "3-0-0"), second.file().fileName());
    AppendResult third;
    try (LogWriter w = writer(storage, "4-0-0", 10_000)) {
      third = w.appendBlocks(block("003", 1));
    }
    assertEquals(second.file().path(), third.file().path(), "below the limit the latest file is appended to");
  }

  @Test
  void otherFileGroupsAndSlicesDoNotCountWhenPickingTheVersion() throws IOException {
    LocalStorage storage = new LocalStorage();
    for (String name : List.of(FileNames.logFileName("other-0", LogFixture.BASE, 7, "0-0-0"),
        FileNames.logFileName(LogFixture.FILE_ID, "20230101000000000", 9, "0-0-0"),
        FileNames.logFileName(LogFixture.FILE_ID, LogFixture.BASE, 4, "0-0-0") + ".cdc",
        "." + FileNames.logFileName(LogFixture.FILE_ID, LogFixture.BASE, 5, "0-0-0") + ".crc")) {
      Files.write(dir.resolve(name), new byte[0]);
    }
    AppendResult r;
    try (LogWriter w = writer(storage, "0-0-0", 1 << 30)) {
      r = w.appendBlocks(block("001", 1));
    }
    assertEquals(1, r.version());
  }

  @Test
  void theLatestFileIsTheHighestVersionThenToken() throws IOException {
    LocalStorage storage = new LocalStorage();
    Files.write(dir.resolve(FileNames.logFileName(LogFixture.FILE_ID, LogFixture.BASE, 3, "0-0-0")), new byte[0]);
    Files.write(dir.resolve(FileNames.logFileName(LogFixture.FILE_ID, LogFixture.BASE, 3, "2-0-0")), new byte[0]);
    Files.write(dir.resolve(FileNames.logFileName(LogFixture.FILE_ID, LogFixture.BASE, 2, "9-9-9")), new byte[0]);
    assertEquals(Optional.of(FileNames.logFileName(LogFixture.FILE_ID, LogFixture.BASE, 3, "2-0-0")),
        LogWriter.latestLogFile(storage, dir.toString(), LogFixture.FILE_ID, LogFixture.BASE).map(LogFile::fileName));
    LogWriter w = writer(storage, "0-0-0", 1 << 30);
    assertEquals(3, w.currentVersion());
    AppendResult r = w.appendBlocks(block("001", 1));
    w.close();
    assertEquals(FileNames.logFileName(LogFixture.FILE_ID, LogFixture.BASE, 4, "0-0-0"), r.file().fileName());
  }

  @Test
  void aKnownLatestLogFileSavesTheListingAndALegacyNameIsNeverAppendedTo() throws IOException {
    Storage storage = LogFixture.appendingStorage();
    String legacy = "." + LogFixture.FILE_ID + "_" + LogFixture.BASE + ".log.2";
    Files.write(dir.resolve(legacy), new byte[0]);
    LogFile known = new LogFile(dir.resolve(legacy).toString(), legacy, LogFixture.FILE_ID, LogFixture.BASE, 2, "", 0);
    AppendResult r;
    try (LogWriter w = LogWriter.builder(storage, dir.toString(), LogFixture.FILE_ID, LogFixture.BASE).writeToken("1-0-1")
        .latestLogFile(Optional.of(known)).open()) {
      r = w.appendBlocks(block("001", 1));
    }
    assertEquals(FileNames.logFileName(LogFixture.FILE_ID, LogFixture.BASE, 3, "1-0-1"), r.file().fileName());
    try (LogWriter w = LogWriter.builder(storage, dir.toString(), "fresh-0", LogFixture.BASE).latestLogFile(Optional.empty()).open()) {
      assertEquals(FileNames.logFileName("fresh-0", LogFixture.BASE, 1, "0-0-0"), Path.of(w.currentPath()).getFileName().toString());
    }
  }

  @Test
  void aWriterThatDiesMidAppendLeavesACorruptTailThatTheNextSessionWritesPast() throws IOException {
    Storage storage = LogFixture.appendingStorage();
    AppendResult a;
    try (LogWriter w = writer(storage, "0-0-0", 1 << 30)) {
      a = w.appendBlocks(block("001", 2));
    }
    // a second writer died after half its block
    AppendResult doomed;
    try (LogWriter w = writer(storage, "0-0-0", 1 << 30)) {
      doomed = w.appendBlocks(block("002", 2));
    }
    byte[] bytes = Files.readAllBytes(Path.of(a.file().path()));
    Files.write(Path.of(a.file().path()), java.util.Arrays.copyOf(bytes, (int) (doomed.offset() + doomed.size() / 2)));
    try (LogWriter w = writer(storage, "0-0-0", 1 << 30)) {
      w.appendBlocks(block("003", 1));
    }
    List<LogBlock> blocks = LogFixture.readAll(storage, a.file().path());
    assertEquals(List.of(LogBlockType.AVRO_DATA_BLOCK, LogBlockType.CORRUPT_BLOCK, LogBlockType.AVRO_DATA_BLOCK),
        blocks.stream().map(LogBlock::type).toList());
    assertEquals(Optional.of("003"), blocks.get(2).instantTime());
  }

  @Test
  void misuseIsRefused() {
    LocalStorage storage = new LocalStorage();
    assertThrows(SluiceException.class, () -> writer(storage, "bad token", 10));
    assertThrows(SluiceException.class, () -> writer(storage, "0-0-0", 0));
    LogWriter w = writer(storage, "0-0-0", 1 << 30);
    assertThrows(SluiceException.class, () -> w.appendBlocks(List.of()));
    assertThrows(SluiceException.class, () -> w.appendBlocks(List.of(new CorruptBlock(0, 1))));
    w.close();
    assertThrows(SluiceException.class, () -> w.appendBlocks(block("001", 1)));
  }
}
