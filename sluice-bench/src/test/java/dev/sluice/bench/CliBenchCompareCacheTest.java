package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CLI bench's two launchers keep their class-data sharing archives apart. */
class CliBenchCompareCacheTest {

  @Test
  void theCompareSideGetsACacheOfItsOwnUnderTheWorkFolder() {
    Path work = Path.of("/tmp/bench-work");
    Map<String, String> compare = CliBench.environment(true, "-XX:+UseParallelGC", work);
    assertEquals("/tmp/bench-work/compare-cache", compare.get("SLUICE_CACHE_DIR"));
    assertEquals("-XX:+UseParallelGC", compare.get("SLUICE_JAVA_OPTS"));
    Map<String, String> own = CliBench.environment(false, "-XX:+UseParallelGC", work);
    assertFalse(own.containsKey("SLUICE_CACHE_DIR"), "the launcher under test keeps the user's cache: " + own);
    assertEquals("-XX:+UseParallelGC", own.get("SLUICE_JAVA_OPTS"));
  }
}
