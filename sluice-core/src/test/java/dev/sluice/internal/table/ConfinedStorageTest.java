package dev.sluice.internal.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.LocalStorage;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How the confinement reads paths: local paths, {@code file:} and other URIs, {@code ..}, NUL. */
class ConfinedStorageTest {
  @Test
  void normalizesEachFormKeepingSchemeAndAuthority() {
    assertEquals(Optional.of("/a/c"), ConfinedStorage.normalize("/a/b/../c/./"));
    assertEquals(Optional.of("hdfs://nn:8020/t/x"), ConfinedStorage.normalize("hdfs://nn:8020/t/p/../x"));
    assertEquals(Optional.of("s3a://bucket/t"), ConfinedStorage.normalize("s3a://bucket/t/p/.."));
    assertEquals(Optional.of("file:/t/x"), ConfinedStorage.normalize("file:/t//x"));
    assertEquals(Optional.empty(), ConfinedStorage.normalize("/t/../.."));
    assertEquals(Optional.empty(), ConfinedStorage.normalize("hdfs://nn/t/../../x"));
    assertEquals(Optional.empty(), ConfinedStorage.normalize("/t/a\0b"));
  }

  @Test
  void allowsTheBaseAndBelowOnly() {
    for (String base : List.of("/w/t", "hdfs://nn:8020/w/t", "s3a://b/w/t", "file:///w/t")) {
      ConfinedStorage s = (ConfinedStorage) ConfinedStorage.of(new LocalStorage(), base, List.of());
      assertTrue(s.allows(base), base);
      assertTrue(s.allows(base + "/p/f.parquet"), base);
      assertTrue(s.allows(base + "/p/../q/%2F..%2Fx"), base);
      assertFalse(s.allows(base + "/../t2/x"), base);
      assertFalse(s.allows(base + "2/x"), base);
      assertFalse(s.allows(base + "/p/../../x"), base);
    }
    ConfinedStorage s = (ConfinedStorage) ConfinedStorage.of(new LocalStorage(), "/w/t", List.of("/locks"));
    assertTrue(s.allows("/locks/lock"));
    assertFalse(s.allows("hdfs://nn/w/t/x"));
  }
}
