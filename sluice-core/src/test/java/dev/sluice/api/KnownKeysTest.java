package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Unknown option keys: found with the closest known key, refused when strict, the ignored Hudi keys documented. */
class KnownKeysTest {
  @TempDir
  Path dir;

  @Test
  void unknownKeysAreFoundWithTheClosestKnownKey() {
    Config c = Config.of(Map.of("hoodie.write.concurrency.mod", "OPTIMISTIC_CONCURRENCY_CONTROL",
        "hoodie.cleaner.commits.retained", "3", "hoodie.table.recordkey.fields", "id", "hoodie.metadata.enable", "false",
        "fs.s3a.endpoint", "x", "sluice.storage.local", "hadoop"));
    List<KnownKeys.Unknown> unknown = KnownKeys.unknown(c);
    assertEquals(1, unknown.size(), unknown.toString());
    assertEquals("hoodie.write.concurrency.mode", unknown.get(0).closest());
    assertEquals(1, unknown.get(0).distance());
    assertTrue(unknown.get(0).describe().contains("did you mean 'hoodie.write.concurrency.mode'?"));
    KnownKeys.Unknown far = KnownKeys.unknown(Config.of(Map.of("sluice.something.else.entirely", "1"))).get(0);
    assertTrue(far.describe().contains("closest known key is") && far.describe().contains("configuration.md"),
        far.describe());
  }

  @Test
  void strictConfigMakesOpenAndCreateRefuseUnknownKeys() {
    Config strict = Config.of(Map.of("sluice.config.strict", "true", "hoodie.parquet.max.file.sise", "1"));
    SluiceException e = assertThrows(SluiceException.class, () -> TripFixture.create(dir.resolve("t"),
        TripFixture.spec().build(), strict.asMap()));
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    assertTrue(e.getMessage().contains("did you mean 'hoodie.parquet.max.file.size'?"), e.getMessage());
    assertFalse(Files.exists(dir.resolve("t/.hoodie")), "nothing created");
    TripFixture.create(dir.resolve("t"), TripFixture.spec().build(), Map.of());
    assertThrows(SluiceException.class, () -> Tables.open(dir.resolve("t").toString(), strict));
    Tables.open(dir.resolve("t").toString(), Config.of(Map.of("hoodie.parquet.max.file.sise", "1")));
  }

  @Test
  void everyIgnoredHudiKeyIsDocumentedWithItsReason() throws IOException {
    String doc = Files.readString(Path.of("..", "docs", "configuration.md"));
    for (KnownKeys.Ignored i : KnownKeys.ignoredHudiKeys()) {
      assertTrue(doc.contains("`" + i.key() + "`"), i.key() + " is not in docs/configuration.md");
      assertFalse(i.why().isBlank());
      assertFalse(ConfigKeys.all().stream().anyMatch(k -> k.name().equals(i.key())), i.key() + " is read, not ignored");
    }
  }
}
