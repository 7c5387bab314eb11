package dev.sluice.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.FileInfo;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.PositionOutputStream;
import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import dev.sluice.storage.Storages;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** HadoopStorage on Hadoop's local file system (file://), which writes .crc side files. */
class HadoopStorageTest {
  private static final Map<String, String> HADOOP_LOCAL = Map.of("sluice.storage.local", "hadoop");

  @TempDir
  Path tmp;

  private String base() {
    return "file://" + tmp.toAbsolutePath();
  }

  private Storage storage() {
    return Storages.forLocation(base(), HADOOP_LOCAL);
  }

  private static byte[] randomBytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static byte[] readAll(Storage s, String path) throws IOException {
    try (SeekableInput in = s.openRead(path)) {
      return in.readAllBytes();
    }
  }

  /** Names in a directory as the operating system sees them, side files included. */
  private static Set<String> namesOnDisk(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
    }
  }

  @Test
  void forLocationWithHadoopLocalSettingUsesTheHadoopProvider() {
    Storage s = storage();
    assertInstanceOf(HadoopStorage.class, s);
    assertEquals("file", s.scheme());
    assertInstanceOf(LocalStorage.class, Storages.forLocation(base(), Map.of()));
  }

  @Test
  void createAndReadRoundTripWithSeekAndReadFully() throws IOException {
    Storage s = storage();
    String path = base() + "/dir/sub/data.bin";
    byte[] data = randomBytes(200_000, 7);
    try (PositionOutputStream out = s.create(path, false)) {
      out.write(data, 0, 1000);
      assertEquals(1000, out.position());
      out.write(data[1000]);
      out.write(data, 1001, data.length - 1001);
      out.sync();
      assertEquals(data.length, out.position());
    }
    try (SeekableInput in = s.openRead(path)) {
      assertEquals(data.length, in.length());
      in.seek(150_000);
      byte[] buf = new byte[4096];
      in.readFully(buf, 0, buf.length);
      assertArrayEquals(java.util.Arrays.copyOfRange(data, 150_000, 154_096), buf);
      assertEquals(154_096, in.getPos());
      assertEquals(data[154_096] & 0xff, in.read());
      in.seek(10);
      assertEquals(data[10] & 0xff, in.read());
      in.seek(data.length - 3);
      assertThrows(EOFException.class, () -> in.readFully(new byte[4], 0, 4));
    }
    assertArrayEquals(data, readAll(s, path));
    assertArrayEquals(data, Files.readAllBytes(tmp.resolve("dir/sub/data.bin")));
  }

  @Test
  void createWithoutOverwriteRefusesAnExistingFileAndOverwriteReplacesIt() throws IOException {
    Storage s = storage();
    String path = base() + "/f";
    try (PositionOutputStream out = s.create(path, false)) {
      out.write("one".getBytes(StandardCharsets.UTF_8));
    }
    assertThrows(FileAlreadyExistsException.class, () -> s.create(path, false));
    try (PositionOutputStream out = s.create(path, true)) {
      out.write("second".getBytes(StandardCharsets.UTF_8));
    }
    assertEquals("second", new String(readAll(s, path), StandardCharsets.UTF_8));
  }

  @Test
  void openReadOfMissingFileIsNoSuchFile() {
    assertThrows(NoSuchFileException.class, () -> storage().openRead(base() + "/missing"));
  }

  @Test
  void listOfMissingDirectoryOrOfAFileIsEmpty() throws IOException {
    Storage s = storage();
    assertEquals(List.of(), s.list(base() + "/nothing/here"));
    s.createExclusive(base() + "/file", new byte[] {1});
    assertEquals(List.of(), s.list(base() + "/file"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"file://", "file:", ""})
  void listedChildrenKeepTheCallersPrefixForm(String prefix) throws IOException {
    Files.createDirectories(tmp.resolve("t/sub"));
    String dir = prefix + tmp.toAbsolutePath() + "/t";
    Storage s = Storages.forLocation(dir, HADOOP_LOCAL);
    s.createExclusive(dir + "/a", new byte[] {1, 2, 3});
    List<FileInfo> listed = s.list(dir);
    assertEquals(List.of(dir + "/a", dir + "/sub"), listed.stream().map(FileInfo::path).toList());
    assertEquals(3, listed.get(0).length());
    assertFalse(listed.get(0).directory());
    assertTrue(listed.get(1).directory());
    assertEquals(0, listed.get(1).length());
    // a trailing slash on the directory does not double up
    assertEquals(dir + "/a", s.list(dir + "/").get(0).path());
  }

  @Test
  void plainPathsStayLocalWhateverTheDefaultFileSystem() throws IOException {
    String dir = tmp.toAbsolutePath() + "/plain";
    Map<String, String> settings = Map.of("sluice.storage.local", "hadoop", "fs.defaultFS", "hdfs://no-such-host:8020");
    Storage s = Storages.forLocation(dir, settings);
    s.createExclusive(dir + "/x", "hi".getBytes(StandardCharsets.UTF_8));
    assertEquals(List.of(dir + "/x"), s.list(dir).stream().map(FileInfo::path).toList());
    assertArrayEquals("hi".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(tmp.resolve("plain/x")));
  }

  @Test
  void infoDescribesFilesAndDirectories() throws IOException {
    Storage s = storage();
    String file = base() + "/d/f.txt";
    s.createExclusive(file, new byte[42]);
    FileInfo f = s.info(file).orElseThrow();
    assertEquals(file, f.path());
    assertEquals(42, f.length());
    assertFalse(f.directory());
    assertEquals(Files.getLastModifiedTime(tmp.resolve("d/f.txt")).toMillis(), f.modificationTime());
    FileInfo d = s.info(base() + "/d").orElseThrow();
    assertTrue(d.directory());
    assertEquals(0, d.length());
    assertTrue(s.info(base() + "/d/missing").isEmpty());
  }

  @Test
  void createExclusivePublishesOnceAndLeavesOnlyTheFileAndItsChecksum() throws IOException {
    Storage s = storage();
    String path = base() + "/timeline/001.commit";
    byte[] first = randomBytes(5000, 1);
    s.createExclusive(path, first);
    assertThrows(FileAlreadyExistsException.class, () -> s.createExclusive(path, randomBytes(10, 2)));
    assertArrayEquals(first, readAll(s, path));
    assertEquals(Set.of("001.commit", ".001.commit.crc"), namesOnDisk(tmp.resolve("timeline")));
    assertEquals(List.of(path), s.list(base() + "/timeline").stream().map(FileInfo::path).toList());
  }

  @Test
  void createExclusiveReplacesAStaleChecksumLeftBehindByADeletedFile() throws IOException {
    Storage s = storage();
    String path = base() + "/x";
    s.createExclusive(path, randomBytes(3000, 3));
    Files.delete(tmp.resolve("x"));
    assertTrue(Files.exists(tmp.resolve(".x.crc")));
    byte[] fresh = randomBytes(700, 4);
    s.createExclusive(path, fresh);
    // Hadoop's local file system verifies the .crc on read: a stale one would fail here
    assertArrayEquals(fresh, readAll(s, path));
  }

  @Test
  void createExclusiveRacingWritersExactlyOneWins() throws IOException, InterruptedException, ExecutionException {
    Storage s = storage();
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 25; round++) {
        String path = base() + "/race/" + round + ".commit";
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Future<Boolean>> results = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          byte[] content = randomBytes(2000 + t, round * 10L + t);
          contents.add(content);
          results.add(pool.submit(() -> {
            start.await();
            try {
              s.createExclusive(path, content);
              return true;
            } catch (FileAlreadyExistsException e) {
              return false;
            }
          }));
        }
        List<Integer> winners = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          if (results.get(t).get()) {
            winners.add(t);
          }
        }
        assertEquals(1, winners.size(), "winners in round " + round + ": " + winners);
        assertArrayEquals(contents.get(winners.get(0)), readAll(s, path));
      }
    } finally {
      pool.shutdownNow();
    }
    Set<String> expected = new TreeSet<>();
    for (int round = 0; round < 25; round++) {
      expected.add(round + ".commit");
      expected.add("." + round + ".commit.crc");
    }
    assertEquals(expected, namesOnDisk(tmp.resolve("race")));
  }

  @Test
  void deleteMkdirsAndDeleteRecursively() throws IOException {
    Storage s = storage();
    String dir = base() + "/a/b/c";
    s.mkdirs(dir);
    s.mkdirs(dir);
    assertTrue(Files.isDirectory(tmp.resolve("a/b/c")));
    s.createExclusive(dir + "/f", new byte[] {9});
    assertThrows(FileAlreadyExistsException.class, () -> s.mkdirs(dir + "/f"));
    assertThrows(IOException.class, () -> s.delete(dir));
    assertTrue(s.delete(dir + "/f"));
    assertFalse(s.delete(dir + "/f"));
    assertFalse(Files.exists(tmp.resolve("a/b/c/.f.crc")));
    assertTrue(s.delete(dir));
    assertFalse(Files.exists(tmp.resolve("a/b/c")));
    s.createExclusive(base() + "/a/b/g", new byte[] {1});
    assertTrue(s.deleteRecursively(base() + "/a"));
    assertFalse(Files.exists(tmp.resolve("a")));
    assertFalse(s.deleteRecursively(base() + "/a"));
  }

  @Test
  void renameMovesIntoNewDirectoriesAndRefusesExistingTargets() throws IOException {
    Storage s = storage();
    String from = base() + "/src";
    String to = base() + "/new/dir/dst";
    byte[] data = randomBytes(1234, 5);
    s.createExclusive(from, data);
    s.rename(from, to);
    assertTrue(s.info(from).isEmpty());
    assertArrayEquals(data, readAll(s, to));

    s.createExclusive(from, new byte[] {1});
    assertThrows(FileAlreadyExistsException.class, () -> s.rename(from, to));
    assertArrayEquals(new byte[] {1}, readAll(s, from));
    assertArrayEquals(data, readAll(s, to));
    assertThrows(NoSuchFileException.class, () -> s.rename(base() + "/missing", base() + "/other"));
  }

  @Test
  void localFileSystemDoesNotClaimAppend() throws IOException {
    Storage s = storage();
    s.createExclusive(base() + "/log", new byte[] {1});
    assertFalse(s.supportsAppend());
    assertThrows(IOException.class, () -> s.append(base() + "/log"));
  }

  @Test
  void settingsPassThroughToTheHadoopConfiguration() {
    Map<String, String> settings = Map.of("sluice.storage.local", "hadoop",
        "fs.s3a.endpoint", "http://localhost:9000", "my.custom.key", "custom-value");
    HadoopStorage s = (HadoopStorage) Storages.forLocation(base(), settings);
    assertEquals("custom-value", s.configuration().get("my.custom.key"));
    assertEquals("http://localhost:9000", s.configuration().get("fs.s3a.endpoint"));
  }

  @Test
  void siteFilesFromTheConfDirectoryAreLoadedAndSettingsOverrideThem() throws IOException {
    Path confDir = Files.createDirectories(tmp.resolve("conf"));
    Files.writeString(confDir.resolve("core-site.xml"), siteXml("from.core.site", "core", "overridden", "file"));
    Files.writeString(confDir.resolve("hdfs-site.xml"), siteXml("from.hdfs.site", "hdfs", "other", "x"));

    var conf = HadoopStorageProvider.configuration(
        Map.of(HadoopStorageProvider.CONF_DIR, confDir.toString(), "overridden", "setting"), null);
    assertEquals("core", conf.get("from.core.site"));
    assertEquals("hdfs", conf.get("from.hdfs.site"));
    assertEquals("setting", conf.get("overridden"));

    var fromEnv = HadoopStorageProvider.configuration(Map.of(), confDir.toString());
    assertEquals("core", fromEnv.get("from.core.site"));
    assertEquals("file", fromEnv.get("overridden"));

    var none = HadoopStorageProvider.configuration(Map.of(), tmp.resolve("no-such-dir").toString());
    assertEquals(null, none.get("from.core.site"));
  }

  @Test
  void withHadoopsCacheDisabledAStorageKeepsOneFileSystemOfItsOwn() throws IOException {
    Map<String, String> noCache = Map.of("sluice.storage.local", "hadoop", "fs.file.impl.disable.cache", "true");
    HadoopStorage s = (HadoopStorage) Storages.forLocation(base(), noCache);
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(base() + "/x");
    assertTrue(s.fsFor(p) == s.fsFor(p), "one instance for the storage's own file system");
    HadoopStorage other = (HadoopStorage) Storages.forLocation(base(), noCache);
    assertFalse(s.fsFor(p) == other.fsFor(p), "each storage has its own");
    s.createExclusive(base() + "/x", new byte[] {1});
    assertEquals(List.of(base() + "/x"), s.list(base()).stream().map(FileInfo::path).toList());

    HadoopStorage cached = (HadoopStorage) storage();
    assertTrue(cached.fsFor(p) == FileSystem.get(p.toUri(), cached.configuration()), "Hadoop's shared instance");
  }

  private static String siteXml(String k1, String v1, String k2, String v2) {
    return "<?xml version=\"1.0\"?>\n<configuration>\n"
        + "<property><name>" + k1 + "</name><value>" + v1 + "</value></property>\n"
        + "<property><name>" + k2 + "</name><value>" + v2 + "</value></property>\n"
        + "</configuration>\n";
  }
}
