package dev.sluice.storageit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.FileInfo;
import dev.sluice.storage.PositionOutputStream;
import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Storage contract on S3 through S3A (Hadoop 3.4.1) against S3Proxy: what holds (an object appears whole at
 * close, a second create is refused once the first is visible, listings emulate folders) and what does not (two
 * writers that both pass the existence check both succeed: S3A 3.4.1 has no conditional PUT).
 */
@ExtendWith(Servers.class)
class S3StorageTest {
  private static S3Server s3;
  private static String bucket;

  @BeforeAll
  static void server(S3Server server) {
    s3 = server;
    bucket = server.newBucket("storage");
  }

  @AfterAll
  static void nothingAskedTheInstanceMetadataService() {
    assertEquals(0, s3.metadataServiceProbes(), "the AWS SDK probed the instance-metadata service");
  }

  private static String newDir(String name) {
    return "s3a://" + bucket + "/" + name + "-" + Servers.uniqueSuffix();
  }

  private static Storage storage(String dir) {
    return RemoteTables.storage(dir, s3.s3aSettings());
  }

  private static byte[] readAll(Storage s, String path) throws IOException {
    try (SeekableInput in = s.openRead(path)) {
      return in.readAllBytes();
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void anObjectAppearsOnlyWhenItsWriterClosesIt() throws IOException {
    String dir = newDir("at-close");
    Storage s = storage(dir);
    PositionOutputStream out = s.create(dir + "/p0/f.parquet", false);
    out.write(new byte[5000]);
    out.sync();
    assertTrue(s.info(dir + "/p0/f.parquet").isEmpty(), "nothing is uploaded before close");
    assertEquals(List.of(), s.list(dir + "/p0"));
    out.close();
    assertEquals(5000, s.info(dir + "/p0/f.parquet").orElseThrow().length());
  }

  @Test
  void createExclusiveRefusesAVisibleObject() throws IOException {
    String dir = newDir("exclusive");
    Storage s = storage(dir);
    s.createExclusive(dir + "/.hoodie/001.commit", utf8("first"));
    assertThrows(FileAlreadyExistsException.class, () -> s.createExclusive(dir + "/.hoodie/001.commit", utf8("second")));
    assertEquals("first", new String(readAll(s, dir + "/.hoodie/001.commit"), StandardCharsets.UTF_8));
    assertEquals(List.of(dir + "/.hoodie/001.commit"),
        s.list(dir + "/.hoodie").stream().map(FileInfo::path).toList(), "no temp object, nothing renamed");
  }

  /**
   * The window of check-then-PUT: the existence check happens when the stream opens, the PUT when it closes. Two
   * writers that open before either closes both succeed, and the later close silently replaces the earlier
   * object. This is why concurrent writers on S3 need a lock provider (see docs/storage.md).
   */
  @Test
  void twoWritersThatBothPassTheExistenceCheckBothSucceedAndTheLastCloseWins() throws IOException {
    String dir = newDir("window");
    Storage a = storage(dir);
    Storage b = storage(dir);
    String path = dir + "/.hoodie/002.commit";
    PositionOutputStream first = a.create(path, false);
    PositionOutputStream second = b.create(path, false);
    first.write(utf8("writer-a"));
    second.write(utf8("writer-b"));
    first.close();
    second.close();
    assertEquals("writer-b", new String(readAll(a, path), StandardCharsets.UTF_8));
  }

  @Test
  void racingCreateExclusiveAlwaysLeavesOneWinnersWholeContent() throws IOException, InterruptedException {
    String dir = newDir("race");
    Storage s = storage(dir);
    ExclusiveRace.Outcome outcome = ExclusiveRace.run(s, dir, 10, 4);
    for (int r = 0; r < 10; r++) {
      int round = r;
      List<Integer> winners = outcome.winnersPerRound().get(round);
      assertFalse(winners.isEmpty(), "someone publishes in round " + round);
      byte[] stored = outcome.stored(round);
      // with several "winners" (possible without a conditional PUT) the object is one of theirs, never a mix
      assertTrue(winners.stream().anyMatch(w -> java.util.Arrays.equals(outcome.contentOf(round, w), stored)),
          "round " + round + " holds one winner's whole content");
    }
    assertEquals(ExclusiveRace.targetNames(10), RemoteTables.names(s, dir));
    long shared = outcome.winnersPerRound().stream().filter(w -> w.size() > 1).count();
    // not asserted (timing decides), but shown in the test output: how often the missing exclusivity showed
    System.err.printf("S3 createExclusive race: %d of 10 rounds had more than one winner%n", shared);
  }

  @Test
  void appendIsNotOffered() throws IOException {
    String dir = newDir("append");
    Storage s = storage(dir);
    s.createExclusive(dir + "/log", utf8("x"));
    assertFalse(s.supportsAppend());
    assertThrows(IOException.class, () -> s.append(dir + "/log"));
  }

  @Test
  void listingAndStatusEmulateFolders() throws IOException {
    String dir = newDir("forms");
    Storage s = storage(dir);
    s.createExclusive(dir + "/a.parquet", new byte[7]);
    s.createExclusive(dir + "/p1/b.parquet", new byte[3]);
    s.mkdirs(dir + "/empty");
    List<FileInfo> listed = s.list(dir);
    assertEquals(List.of(dir + "/a.parquet", dir + "/empty", dir + "/p1"), listed.stream().map(FileInfo::path).toList());
    assertEquals(7, listed.get(0).length());
    assertFalse(listed.get(0).directory());
    assertTrue(listed.get(1).directory());
    assertTrue(listed.get(2).directory(), "a prefix with objects below it lists as a folder");
    assertEquals(List.of(dir + "/a.parquet", dir + "/empty", dir + "/p1"),
        s.list(dir + "/").stream().map(FileInfo::path).toList());

    assertEquals(3, s.info(dir + "/p1/b.parquet").orElseThrow().length());
    assertTrue(s.info(dir + "/p1").orElseThrow().directory());
    assertTrue(s.info(dir + "/missing").isEmpty());
    assertEquals(List.of(), s.list(dir + "/missing"));
    assertEquals(List.of(), s.list(dir + "/a.parquet"), "an object lists as empty");
    assertThrows(NoSuchFileException.class, () -> s.openRead(dir + "/missing"));
    assertTrue(s.delete(dir + "/a.parquet"));
    assertTrue(s.deleteRecursively(dir + "/p1"));
    assertEquals(List.of(dir + "/empty"), s.list(dir).stream().map(FileInfo::path).toList());
  }

  @Test
  void seekAndReadFullyOnAnObject() throws IOException {
    String dir = newDir("seek");
    Storage s = storage(dir);
    byte[] data = new byte[300_000];
    new java.util.Random(5).nextBytes(data);
    try (PositionOutputStream out = s.create(dir + "/f", false)) {
      out.write(data);
    }
    try (SeekableInput in = s.openRead(dir + "/f")) {
      assertEquals(data.length, in.length());
      in.seek(250_000);
      byte[] buf = new byte[1000];
      in.readFully(buf, 0, buf.length);
      assertArrayEquals(java.util.Arrays.copyOfRange(data, 250_000, 251_000), buf);
      in.seek(3);
      assertEquals(data[3] & 0xff, in.read());
    }
  }
}
