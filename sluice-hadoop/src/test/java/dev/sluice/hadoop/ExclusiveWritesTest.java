package dev.sluice.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.Storage;
import dev.sluice.storage.Storages;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The publish strategies for stores this module cannot reach in a unit test (object stores, other file
 * systems), exercised on the local disk behind a file system that reports another scheme.
 */
class ExclusiveWritesTest {
  @TempDir
  java.nio.file.Path tmp;

  /** The local file system, presented under {@code scheme}'s URI so that mode selection treats it as that store. */
  private static FileSystem disguisedLocal(String scheme) throws IOException {
    Configuration conf = new Configuration();
    FileSystem local = FileSystem.getLocal(conf);
    URI uri = URI.create(scheme + "://bucket/");
    FilterFileSystem fs = new FilterFileSystem(local) {
      @Override
      public URI getUri() {
        return uri;
      }
    };
    fs.setConf(conf);
    return fs;
  }

  private Set<String> namesOnDisk(java.nio.file.Path dir) throws IOException {
    try (Stream<java.nio.file.Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
    }
  }

  private Path fileIn(String name) {
    return new Path(tmp.toUri().toString() + name);
  }

  @Test
  void modeFollowsTheStore() throws IOException {
    assertEquals(ExclusiveWrites.Mode.LINK, ExclusiveWrites.modeOf(FileSystem.getLocal(new Configuration())));
    assertEquals(ExclusiveWrites.Mode.LINK, ExclusiveWrites.modeOf(FileSystem.getLocal(new Configuration()).getRaw()));
    assertEquals(ExclusiveWrites.Mode.DIRECT, ExclusiveWrites.modeOf(disguisedLocal("s3a")));
    assertEquals(ExclusiveWrites.Mode.DIRECT, ExclusiveWrites.modeOf(disguisedLocal("gs")));
    assertEquals(ExclusiveWrites.Mode.RENAME, ExclusiveWrites.modeOf(disguisedLocal("abfs")));
    assertEquals(ExclusiveWrites.Mode.RENAME, ExclusiveWrites.modeOf(disguisedLocal("viewfs")));
  }

  @Test
  void directPublishWritesOnceAndRefusesASecondWrite() throws IOException {
    FileSystem fs = disguisedLocal("s3a");
    Path target = fileIn("t/x.commit");
    ExclusiveWrites.publish(fs, target, "s3a://bucket/t/x.commit", new byte[] {1, 2, 3});
    FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
        () -> ExclusiveWrites.publish(fs, target, "s3a://bucket/t/x.commit", new byte[] {4}));
    assertEquals("s3a://bucket/t/x.commit", e.getFile());
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(tmp.resolve("t/x.commit")));
    assertEquals(Set.of("x.commit", ".x.commit.crc"), namesOnDisk(tmp.resolve("t")));
  }

  @Test
  void renamePublishWritesOnceAndLeavesNoTempFile() throws IOException {
    FileSystem fs = disguisedLocal("abfs");
    Path target = fileIn("t/x.commit");
    ExclusiveWrites.publish(fs, target, "abfs://bucket/t/x.commit", new byte[] {5, 6});
    assertThrows(FileAlreadyExistsException.class,
        () -> ExclusiveWrites.publish(fs, target, "abfs://bucket/t/x.commit", new byte[] {7}));
    assertArrayEquals(new byte[] {5, 6}, Files.readAllBytes(tmp.resolve("t/x.commit")));
    assertEquals(Set.of("x.commit", ".x.commit.crc"), namesOnDisk(tmp.resolve("t")));
  }

  @Test
  void renameNoReplaceRefusesAnExistingTargetAndReportsAMissingSource() throws IOException {
    FileSystem fs = disguisedLocal("abfs");
    Files.write(tmp.resolve("a"), new byte[] {1});
    Files.write(tmp.resolve("b"), new byte[] {2});
    assertThrows(FileAlreadyExistsException.class,
        () -> ExclusiveWrites.renameNoReplace(fs, fileIn("a"), fileIn("b"), "a", "b"));
    assertArrayEquals(new byte[] {2}, Files.readAllBytes(tmp.resolve("b")));
    assertThrows(NoSuchFileException.class,
        () -> ExclusiveWrites.renameNoReplace(fs, fileIn("missing"), fileIn("c"), "missing", "c"));
    ExclusiveWrites.renameNoReplace(fs, fileIn("a"), fileIn("c"), "a", "c");
    assertFalse(Files.exists(tmp.resolve("a")));
    assertArrayEquals(new byte[] {1}, Files.readAllBytes(tmp.resolve("c")));
  }

  @Test
  void storagesForRemoteSchemesAreMadeWithoutContactingTheStore() {
    Storage hdfs = Storages.forLocation("hdfs://no-such-namenode.invalid:8020/t", Map.of());
    assertInstanceOf(HadoopStorage.class, hdfs);
    assertEquals("hdfs", hdfs.scheme());
    assertTrue(hdfs.supportsAppend());

    Storage s3a = Storages.forLocation("s3a://bucket/t", Map.of());
    assertEquals("s3a", s3a.scheme());
    assertFalse(s3a.supportsAppend());

    HadoopStorage s3 = (HadoopStorage) Storages.forLocation("s3://bucket/t", Map.of());
    assertEquals("org.apache.hadoop.fs.s3a.S3AFileSystem", s3.configuration().get("fs.s3.impl"));
    HadoopStorage custom = (HadoopStorage) Storages.forLocation("s3://bucket/t", Map.of("fs.s3.impl", "my.S3"));
    assertEquals("my.S3", custom.configuration().get("fs.s3.impl"));
  }

  @Test
  void viewfsWithoutAMountTableDoesNotClaimAppend() {
    assertFalse(Storages.forLocation("viewfs://cluster/t", Map.of()).supportsAppend());
  }
}
