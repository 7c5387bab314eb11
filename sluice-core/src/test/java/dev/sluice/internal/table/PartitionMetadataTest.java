package dev.sluice.internal.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionMetadataTest {
  @TempDir
  Path dir;

  private final LocalStorage storage = new LocalStorage();

  private static Properties load(Path p) throws IOException {
    Properties props = new Properties();
    props.load(new StringReader(Files.readString(p)));
    return props;
  }

  @Test
  void writesCommitTimeAndDepth() throws IOException {
    PartitionMetadata.ensure(storage, dir.toString(), "2024/01/02", "20240102030405678");
    Path f = dir.resolve("2024/01/02/.hoodie_partition_metadata");
    List<String> lines = Files.readAllLines(f);
    assertEquals("#partition metadata", lines.get(0));
    Properties p = load(f);
    assertEquals("20240102030405678", p.getProperty("commitTime"));
    assertEquals("3", p.getProperty("partitionDepth"));
    assertTrue(PartitionMetadata.exists(storage, dir.toString(), "2024/01/02"));
    assertFalse(PartitionMetadata.exists(storage, dir.toString(), "2024/01"));
  }

  @Test
  void nonPartitionedTableHasDepthZeroInTheBasePath() throws IOException {
    PartitionMetadata.ensure(storage, dir.toString(), "", "001");
    Properties p = load(dir.resolve(".hoodie_partition_metadata"));
    assertEquals("0", p.getProperty("partitionDepth"));
    assertTrue(PartitionMetadata.exists(storage, dir.toString(), ""));
  }

  @Test
  void keepsTheFirstWritersFileAndLeavesNoTempFiles() throws IOException {
    PartitionMetadata.ensure(storage, dir.toString(), "p=1", "001");
    PartitionMetadata.ensure(storage, dir.toString(), "p=1", "002");
    assertEquals("001", load(dir.resolve("p=1/.hoodie_partition_metadata")).getProperty("commitTime"));
    try (var s = Files.list(dir.resolve("p=1"))) {
      assertEquals(List.of(".hoodie_partition_metadata"), s.map(x -> x.getFileName().toString()).toList());
    }
  }

  @Test
  void baseFormatVariantCountsAsPresent() throws IOException {
    Files.createDirectories(dir.resolve("p"));
    Files.write(dir.resolve("p/.hoodie_partition_metadata.parquet"), new byte[4]);
    assertTrue(PartitionMetadata.exists(storage, dir.toString(), "p"));
  }

  @Test
  void depthCountsLevels() {
    assertEquals(0, PartitionMetadata.depth(""));
    assertEquals(1, PartitionMetadata.depth("p1"));
    assertEquals(2, PartitionMetadata.depth("y=2024/m=01"));
  }
}
