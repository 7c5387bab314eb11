package dev.sluice.storage;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hadoop's {@code .<name>.crc} side files never outlive a change Sluice makes to their file. */
class LocalStorageChecksumTest {
  @TempDir
  Path dir;

  private final LocalStorage storage = new LocalStorage();

  private Path withChecksum(String name) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, "old", StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("." + name + ".crc"), "crc", StandardCharsets.UTF_8);
    return file;
  }

  private boolean hasChecksum(String name) {
    return Files.exists(dir.resolve("." + name + ".crc"));
  }

  @Test
  void overwriteDropsTheStaleChecksum() throws IOException {
    Path file = withChecksum("hoodie.properties");
    try (OutputStream out = storage.create(file.toString(), true)) {
      out.write("new".getBytes(StandardCharsets.UTF_8));
    }
    assertFalse(hasChecksum("hoodie.properties"));
    assertTrue(Files.exists(file));
  }

  @Test
  void deleteAndRecreateDropTheChecksum() throws IOException {
    Path file = withChecksum("a.commit");
    assertTrue(storage.delete(file.toString()));
    assertFalse(hasChecksum("a.commit"));
    withChecksum("b.commit");
    Files.delete(dir.resolve("b.commit"));
    // an orphan checksum from an earlier file of the same name must not cover the new one
    storage.createExclusive(dir.resolve("b.commit").toString(), "x".getBytes(StandardCharsets.UTF_8));
    assertFalse(hasChecksum("b.commit"));
  }

  @Test
  void renameDropsChecksumsOfSourceAndTarget() throws IOException {
    Path from = withChecksum("from.parquet");
    withChecksum("to.parquet");
    Files.delete(dir.resolve("to.parquet"));
    storage.rename(from.toString(), dir.resolve("to.parquet").toString());
    assertFalse(hasChecksum("from.parquet"));
    assertFalse(hasChecksum("to.parquet"));
    assertTrue(Files.exists(dir.resolve("to.parquet")));
  }

  @Test
  void otherFilesKeepTheirChecksums() throws IOException {
    withChecksum("keep.parquet");
    Path other = withChecksum("other.parquet");
    storage.delete(other.toString());
    assertTrue(hasChecksum("keep.parquet"));
  }
}
