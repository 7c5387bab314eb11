package dev.sluice.internal.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetadataTableTest {
  @TempDir
  Path dir;

  private final LocalStorage storage = new LocalStorage();

  @Test
  void removesFolderAndClearsBothPartitionKeys() throws IOException {
    TableConfig c = TableConfig.builder().name("trips").recordKeyFields("k")
        .property(TableConfig.METADATA_PARTITIONS, "column_stats,files")
        .property(TableConfig.METADATA_PARTITIONS_INFLIGHT, "record_index").build();
    TableLayout.initialize(storage, dir.toString(), c);
    Files.createDirectories(dir.resolve(".hoodie/metadata/files"));
    Files.write(dir.resolve(".hoodie/metadata/files/x.log"), new byte[3]);

    assertTrue(MetadataTable.removeIfPresent(storage, dir.toString()));

    assertFalse(Files.exists(dir.resolve(".hoodie/metadata")));
    TableConfig after = TableConfigStore.read(storage, dir.toString());
    assertEquals(Optional.of(""), after.get(TableConfig.METADATA_PARTITIONS));
    assertEquals(Optional.of(""), after.get(TableConfig.METADATA_PARTITIONS_INFLIGHT));
    assertFalse(Files.exists(dir.resolve(".hoodie/hoodie.properties.backup")));
    assertFalse(MetadataTable.removeIfPresent(storage, dir.toString()), "nothing left to remove");
  }

  @Test
  void removesAnUnlistedFolder() throws IOException {
    TableLayout.initialize(storage, dir.toString(), TableConfig.builder().name("t").recordKeyFields("k").build());
    Files.createDirectories(dir.resolve(".hoodie/metadata/.hoodie"));
    assertTrue(MetadataTable.removeIfPresent(storage, dir.toString()));
    assertFalse(Files.exists(dir.resolve(".hoodie/metadata")));
  }

  @Test
  void nothingToDoWithoutMetadataTable() {
    TableLayout.initialize(storage, dir.toString(), TableConfig.builder().name("t").recordKeyFields("k").build());
    assertFalse(MetadataTable.removeIfPresent(storage, dir.toString()));
    assertEquals(Optional.empty(), TableConfigStore.read(storage, dir.toString()).get(TableConfig.METADATA_PARTITIONS));
  }
}
