package dev.sluice.internal.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkersTest {
  @TempDir
  Path dir;

  @Test
  void createListDelete() {
    Markers m = new Markers(new LocalStorage(), dir.toString(), "001");
    assertFalse(m.exists());
    assertEquals(List.of(), m.list());
    m.create("p1", "f-0_0-0-0_001.parquet", IOType.CREATE);
    m.create("y=2024/m=01", ".f-1_000.log.1_0-0-0", IOType.APPEND);
    m.create("", "f-2_0-0-0_001.parquet", IOType.MERGE);
    m.create("p1", "f-0_0-0-0_001.parquet", IOType.CREATE);
    assertTrue(Files.isRegularFile(dir.resolve(".hoodie/.temp/001/p1/f-0_0-0-0_001.parquet.marker.CREATE")));
    assertTrue(Files.isRegularFile(dir.resolve(".hoodie/.temp/001/y=2024/m=01/.f-1_000.log.1_0-0-0.marker.APPEND")));
    assertTrue(m.exists());
    assertEquals(List.of(
        new Marker("", "f-2_0-0-0_001.parquet", IOType.MERGE),
        new Marker("p1", "f-0_0-0-0_001.parquet", IOType.CREATE),
        new Marker("y=2024/m=01", ".f-1_000.log.1_0-0-0", IOType.APPEND)), m.list());
    assertEquals("y=2024/m=01/.f-1_000.log.1_0-0-0", m.list().get(2).relativeFilePath());
    // other instants are separate
    assertEquals(List.of(), new Markers(new LocalStorage(), dir.toString(), "002").list());
    m.deleteAll();
    assertFalse(m.exists());
    assertEquals(List.of(), m.list());
  }

  @Test
  void readsTimelineServerMarkerFiles() throws IOException {
    Path d = dir.resolve(".hoodie/.temp/003");
    Files.createDirectories(d);
    Files.writeString(d.resolve("MARKERS.type"), "TIMELINE_SERVER_BASED");
    Files.writeString(d.resolve("MARKERS0"), "p1/a_0-0-0_003.parquet.marker.CREATE\np2/.b_001.log.1_0-0-0.marker.APPEND\n");
    Files.writeString(d.resolve("MARKERS1"), "p1/c_0-0-0_003.parquet.marker.MERGE\n");
    List<Marker> list = new Markers(new LocalStorage(), dir.toString(), "003").list();
    assertEquals(List.of(new Marker("p1", "a_0-0-0_003.parquet", IOType.CREATE),
        new Marker("p1", "c_0-0-0_003.parquet", IOType.MERGE),
        new Marker("p2", ".b_001.log.1_0-0-0", IOType.APPEND)), list);
  }

  @Test
  void ignoresNonMarkerFiles() throws IOException {
    Path d = dir.resolve(".hoodie/.temp/004/p1");
    Files.createDirectories(d);
    Files.write(d.resolve(".x_0-0-0_004.parquet.marker.CREATE.crc"), new byte[1]);
    Files.write(d.resolve("x_0-0-0_004.parquet.marker.CREATE"), new byte[0]);
    Files.write(d.resolve("junk"), new byte[0]);
    assertEquals(List.of(new Marker("p1", "x_0-0-0_004.parquet", IOType.CREATE)),
        new Markers(new LocalStorage(), dir.toString(), "004").list());
    assertEquals(Optional.empty(), Markers.parse("p1/file.marker.DELETE"));
  }

  /**
   * Reconcile at publish: a file that a task attempt created or merged but that no write stat names (the attempt
   * failed, or lost to a retry or a speculative copy) is deleted; the stats' files, append-marked log files (shared
   * with earlier instants) and markers whose file was never created are left alone.
   */
  @Test
  void reconcileDeletesTheFilesOfAttemptsNoWriteStatNames() throws IOException {
    Markers m = new Markers(new LocalStorage(), dir.toString(), "005");
    Files.createDirectories(dir.resolve("p1"));
    for (String f : List.of("p1/a_0-3-7_005.parquet", "p1/a_0-3-9_005.parquet", "p1/b_1-3-8_005.parquet",
        "p1/.c_001.log.2_0-0-0", "p1/d_2-3-10_005.parquet")) {
      Files.writeString(dir.resolve(f), "data");
    }
    m.create("p1", "a_0-3-7_005.parquet", IOType.CREATE);
    m.create("p1", "a_0-3-9_005.parquet", IOType.CREATE);
    m.create("p1", "b_1-3-8_005.parquet", IOType.MERGE);
    m.create("p1", ".c_001.log.2_0-0-0", IOType.APPEND);
    m.create("p1", "d_2-3-10_005.parquet", IOType.MERGE);
    m.create("p1", "e_3-3-11_005.parquet", IOType.CREATE);

    List<String> deleted = m.reconcile(Set.of("p1/a_0-3-9_005.parquet", "p1/d_2-3-10_005.parquet"));

    assertEquals(List.of("p1/a_0-3-7_005.parquet", "p1/b_1-3-8_005.parquet"), deleted);
    assertFalse(Files.exists(dir.resolve("p1/a_0-3-7_005.parquet")));
    assertFalse(Files.exists(dir.resolve("p1/b_1-3-8_005.parquet")));
    assertTrue(Files.exists(dir.resolve("p1/a_0-3-9_005.parquet")));
    assertTrue(Files.exists(dir.resolve("p1/d_2-3-10_005.parquet")));
    assertTrue(Files.exists(dir.resolve("p1/.c_001.log.2_0-0-0")), "an appended log file is never deleted");
  }
}
