package dev.sluice.internal.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.storage.LocalStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableLayoutTest {
  @TempDir
  Path dir;

  @Test
  void pathHelpers() {
    String b = "/t/base";
    assertEquals("/t/base/.hoodie", TableLayout.metaFolder(b));
    assertEquals("/t/base/.hoodie/.temp", TableLayout.tempFolder(b));
    assertEquals("/t/base/.hoodie/.schema", TableLayout.schemaFolder(b));
    assertEquals("/t/base/.hoodie/.aux", TableLayout.auxFolder(b));
    assertEquals("/t/base/.hoodie/archived", TableLayout.archivedFolder(b));
    assertEquals("/t/base/.hoodie/metadata", TableLayout.metadataTableFolder(b));
    assertEquals("/t/base/.hoodie/.heartbeat", TableLayout.heartbeatFolder(b));
  }

  @Test
  void initializeCreatesHudisFoldersAndTheConfig() {
    Path base = dir.resolve("tbl");
    TableLayout.initialize(new LocalStorage(), base.toString(),
        TableConfig.builder().name("trips").recordKeyFields("uuid").build());
    for (String d : new String[] {".hoodie", ".hoodie/.schema", ".hoodie/archived", ".hoodie/.temp", ".hoodie/.aux",
        ".hoodie/.aux/.bootstrap/.partitions", ".hoodie/.aux/.bootstrap/.fileids"}) {
      assertTrue(Files.isDirectory(base.resolve(d)), d);
    }
    assertEquals("trips", TableConfigStore.read(new LocalStorage(), base.toString()).name());
  }

  @Test
  void initializeRefusesAnExistingTable() {
    TableConfig c = TableConfig.builder().name("trips").recordKeyFields("uuid").build();
    TableLayout.initialize(new LocalStorage(), dir.toString(), c);
    SluiceException e = assertThrows(SluiceException.class,
        () -> TableLayout.initialize(new LocalStorage(), dir.toString(), c));
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    assertTrue(e.getMessage().contains("already exists"), e.getMessage());
  }
}
