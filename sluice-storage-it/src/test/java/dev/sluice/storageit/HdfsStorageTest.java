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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The Storage contract on HDFS (the mini cluster): atomic exclusive publish, append, listing and status forms. */
@ExtendWith(Servers.class)
class HdfsStorageTest {
  private static HdfsServer hdfs;

  @BeforeAll
  static void cluster(HdfsServer server) {
    hdfs = server;
  }

  private static Storage storage(String dir) {
    return RemoteTables.storage(dir, hdfs.clientSettings());
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static byte[] readAll(Storage s, String path) throws IOException {
    try (SeekableInput in = s.openRead(path)) {
      return in.readAllBytes();
    }
  }

  @Test
  void createExclusiveIsExclusiveAndAtomicUnderARace() throws IOException, InterruptedException {
    String dir = hdfs.newFolder("race");
    Storage s = storage(dir);
    ExclusiveRace.Outcome outcome = ExclusiveRace.run(s, dir, 10, 4);
    assertEquals(10, outcome.winnersPerRound().size());
    for (int round = 0; round < 10; round++) {
      assertEquals(1, outcome.winnersPerRound().get(round).size(), "exactly one writer wins round " + round);
      assertArrayEquals(outcome.contentOf(round, outcome.winnersPerRound().get(round).get(0)), outcome.stored(round),
          "the file holds the winner's whole content");
    }
    // the temp files of losers and winners are gone: only the published files are there
    assertEquals(ExclusiveRace.targetNames(10), RemoteTables.names(s, dir));
  }

  @Test
  void createExclusiveRefusesAnExistingFile() throws IOException {
    String dir = hdfs.newFolder("exclusive");
    Storage s = storage(dir);
    s.createExclusive(dir + "/001.commit", "first".getBytes(StandardCharsets.UTF_8));
    assertThrows(FileAlreadyExistsException.class, () -> s.createExclusive(dir + "/001.commit", new byte[] {1}));
    assertEquals("first", new String(readAll(s, dir + "/001.commit"), StandardCharsets.UTF_8));
    assertThrows(FileAlreadyExistsException.class, () -> s.create(dir + "/001.commit", false));
  }

  @Test
  void appendAddsToAnExistingFileAndCountsPositionsFromItsEnd() throws IOException {
    String dir = hdfs.newFolder("append");
    Storage s = storage(dir);
    assertTrue(s.supportsAppend());
    String path = dir + "/.f1_20260101000000000.log.1_0-1-1";
    try (PositionOutputStream out = s.create(path, false)) {
      out.write("block-1;".getBytes(StandardCharsets.UTF_8));
    }
    try (PositionOutputStream out = s.append(path)) {
      assertEquals(8, out.position());
      out.write("block-2;".getBytes(StandardCharsets.UTF_8));
      out.sync();
      assertEquals(16, out.position());
    }
    try (PositionOutputStream out = s.append(path)) {
      out.write("block-3".getBytes(StandardCharsets.UTF_8));
    }
    assertEquals("block-1;block-2;block-3", new String(readAll(s, path), StandardCharsets.UTF_8));
    assertEquals(23, s.info(path).orElseThrow().length());
    assertThrows(NoSuchFileException.class, () -> s.append(dir + "/missing"));
  }

  @Test
  void readsSeekAcrossBlocks() throws IOException {
    // spelled with 127.0.0.1, the cluster gets a client of its own in Hadoop's file system cache (keyed by
    // authority), so this block size applies without disabling the cache
    String dir = hdfs.newFolder("blocks").replace("//localhost:", "//127.0.0.1:");
    Map<String, String> settings = new HashMap<>(hdfs.clientSettings());
    settings.put("dfs.blocksize", "1048576");
    Storage s = RemoteTables.storage(dir, settings);
    byte[] data = bytes(3 * 1048576 + 123, 3);
    String path = dir + "/big.parquet";
    try (PositionOutputStream out = s.create(path, false)) {
      out.write(data);
    }
    try (SeekableInput in = s.openRead(path)) {
      assertEquals(data.length, in.length());
      in.seek(2 * 1048576 - 10);
      byte[] span = new byte[20];
      in.readFully(span, 0, span.length);
      assertArrayEquals(Arrays.copyOfRange(data, 2 * 1048576 - 10, 2 * 1048576 + 10), span);
      in.seek(5);
      assertEquals(data[5] & 0xff, in.read());
    }
  }

  @Test
  void listingAndStatusKeepTheCallersPathForm() throws IOException {
    String dir = hdfs.newFolder("forms");
    Storage s = storage(dir);
    s.createExclusive(dir + "/a.parquet", new byte[7]);
    s.mkdirs(dir + "/sub");
    List<FileInfo> listed = s.list(dir);
    assertEquals(List.of(dir + "/a.parquet", dir + "/sub"), listed.stream().map(FileInfo::path).toList());
    assertEquals(7, listed.get(0).length());
    assertFalse(listed.get(0).directory());
    assertTrue(listed.get(1).directory());
    assertEquals(List.of(dir + "/a.parquet", dir + "/sub"), s.list(dir + "/").stream().map(FileInfo::path).toList());

    // a path without scheme and authority resolves on the file system the storage was made for
    String plain = dir.substring(hdfs.uri().length());
    assertEquals(List.of(plain + "/a.parquet", plain + "/sub"), s.list(plain).stream().map(FileInfo::path).toList());

    FileInfo file = s.info(dir + "/a.parquet").orElseThrow();
    assertEquals(7, file.length());
    assertTrue(file.modificationTime() > 0);
    assertTrue(s.info(dir + "/sub").orElseThrow().directory());
    assertTrue(s.info(dir + "/missing").isEmpty());
    assertEquals(List.of(), s.list(dir + "/missing"));
    assertEquals(List.of(), s.list(dir + "/a.parquet"), "a file lists as empty");
    assertThrows(NoSuchFileException.class, () -> s.openRead(dir + "/missing"));
  }

  @Test
  void renameRefusesAnExistingTargetAndDeleteReportsWhatWasThere() throws IOException {
    String dir = hdfs.newFolder("rename");
    Storage s = storage(dir);
    s.createExclusive(dir + "/a", new byte[] {1});
    s.createExclusive(dir + "/b", new byte[] {2});
    assertThrows(FileAlreadyExistsException.class, () -> s.rename(dir + "/a", dir + "/b"));
    assertArrayEquals(new byte[] {2}, readAll(s, dir + "/b"));
    s.rename(dir + "/a", dir + "/c/d");
    assertArrayEquals(new byte[] {1}, readAll(s, dir + "/c/d"));
    assertTrue(s.delete(dir + "/b"));
    assertFalse(s.delete(dir + "/b"));
    assertTrue(s.deleteRecursively(dir + "/c"));
    assertEquals(List.of(), s.list(dir));
  }
}
