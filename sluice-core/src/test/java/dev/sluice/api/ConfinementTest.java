package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The last line of defence: a table handle's storage refuses to create, change or delete anything outside the
 * table's base path, whatever path the engine, a plan, a marker or a table property asks for.
 */
class ConfinementTest {
  @TempDir
  Path tmp;

  /** Every file and folder under {@code root} except those under {@code skip}, with their sizes. */
  static Map<String, Long> tree(Path root, Path skip) throws IOException {
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.toList()) {
        if (!p.startsWith(skip)) {
          out.put(root.relativize(p).toString(), Files.isDirectory(p) ? -1L : Files.size(p));
        }
      }
    }
    return out;
  }

  @Test
  void storageOfATableRefusesEveryChangeOutsideIt() throws IOException {
    Path base = tmp.resolve("a/b/t");
    Table t = TripFixture.create(base, TripFixture.spec().build(), Map.of());
    t.write(WriteOperation.INSERT, TripFixture.trips(0, 10, 2, 1).iterator());
    Files.writeString(tmp.resolve("a/victim.txt"), "keep me");
    Map<String, Long> before = tree(tmp, base);
    Storage s = t.storage();
    String b = t.location();
    List<ThrowingCall> calls = List.of(
        () -> s.create(b + "/../x.parquet", false).close(),
        () -> s.create(b + "/p0/../../../x.parquet", true).close(),
        () -> s.createExclusive(b + "/../../x", new byte[1]),
        () -> s.createExclusive(tmp.resolve("elsewhere/x").toString(), new byte[1]),
        () -> s.mkdirs(b + "/.hoodie/.temp/1/../../../../y"),
        () -> s.delete(b + "/../../victim.txt"),
        () -> s.deleteRecursively(b + "/.."),
        () -> s.rename(b + "/.hoodie/hoodie.properties", b + "/../stolen"),
        () -> s.create(b + "/p0\0/x", false).close(),
        () -> s.create(b + "x/sibling", false).close());
    for (ThrowingCall c : calls) {
      SluiceException e = assertThrows(SluiceException.class, c::run);
      assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
      assertTrue(e.getMessage().contains("outside the table's base path"), e.getMessage());
    }
    assertEquals(before, tree(tmp, base));
    assertEquals("keep me", Files.readString(tmp.resolve("a/victim.txt")));
    // inside the table, ".." that stays inside is fine, and reads are not confined
    s.createExclusive(b + "/p0/../p1/../.hoodie/.aux/ok", new byte[] {1});
    assertTrue(Files.exists(base.resolve(".hoodie/.aux/ok")));
    assertTrue(s.info(tmp.resolve("a/victim.txt").toString()).isPresent());
    // reopening wraps once, and the lock folder the configuration names is allowed
    Path lockDir = tmp.resolve("locks");
    Table locked = Tables.open(s, b, Config.of(Map.of("hoodie.write.lock.filesystem.path", lockDir.toString())));
    locked.storage().createExclusive(lockDir.resolve("lock").toString(), new byte[] {1});
    assertTrue(Files.exists(lockDir.resolve("lock")));
  }

  /**
   * A damaged (or hostile) marker list naming a file two folders above the table: rolling the failed write back
   * must not delete it. Before the confinement it was deleted.
   */
  @Test
  void rollbackOfAMarkerListPointingOutsideDeletesNothingThere() throws IOException {
    Path base = tmp.resolve("a/b/t");
    Table t = TripFixture.create(base, TripFixture.spec().tableVersion(6).build(), Map.of());
    t.write(WriteOperation.INSERT, TripFixture.trips(0, 10, 2, 1).iterator());
    String failed = "20300101000000000";
    String victimName = "11111111-2222-3333-4444-555555555555-0_0-0-0_" + failed + ".parquet";
    Path victim = tmp.resolve("a").resolve(victimName);
    Files.writeString(victim, "not Sluice's");
    Path hoodie = base.resolve(".hoodie");
    Files.writeString(hoodie.resolve(failed + ".commit.requested"), "");
    Files.writeString(hoodie.resolve(failed + ".inflight"), "");
    Path markers = hoodie.resolve(".temp").resolve(failed);
    Files.createDirectories(markers);
    Files.writeString(markers.resolve("MARKERS.type"), "TIMELINE_SERVER_BASED");
    Files.writeString(markers.resolve("MARKERS0"), "../../" + victimName + ".marker.CREATE\n",
        StandardCharsets.UTF_8);
    Map<String, Long> before = tree(tmp, base);
    SluiceException e = assertThrows(SluiceException.class, () -> t.rollback(failed));
    assertTrue(e.getMessage().contains("outside the table's base path"), e.getMessage());
    assertTrue(Files.exists(victim), "the file outside the table was deleted");
    assertEquals(before, tree(tmp, base));
  }

  /** A table property naming an archive folder outside {@code .hoodie}: creating the table writes nothing there. */
  @Test
  void archiveFolderOutsideTheTableIsRefused() throws IOException {
    Path base = tmp.resolve("a/b/t");
    TableSpec spec = TripFixture.spec().tableVersion(6).property("hoodie.archivelog.folder", "../../../escaped").build();
    Map<String, Long> before = tree(tmp, base);
    SluiceException e = assertThrows(SluiceException.class, () -> TripFixture.create(base, spec, Map.of()));
    assertTrue(e.getMessage().contains("outside the table's base path"), e.getMessage());
    assertFalse(Files.exists(tmp.resolve("a/escaped")));
    Map<String, Long> after = tree(tmp, base);
    after.keySet().removeIf(k -> k.equals("a") || k.equals("a/b"));
    before.keySet().removeIf(k -> k.equals("a") || k.equals("a/b"));
    assertEquals(before, after);
  }

  @FunctionalInterface
  interface ThrowingCall {
    void run() throws IOException;
  }
}
