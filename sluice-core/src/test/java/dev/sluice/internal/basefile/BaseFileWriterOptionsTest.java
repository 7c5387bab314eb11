package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.internal.bloom.BloomFilterType;
import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BaseFileWriterOptionsTest {
  @Test
  void defaultsFollowTheConfigKeys() {
    BaseFileWriterOptions o = BaseFileWriterOptions.from(Config.empty());
    assertEquals(new BaseFileWriterOptions("snappy", 125_829_120L, 1_048_576, true, BloomFilterType.DYNAMIC_V0,
        60_000, 0.000000001, 100_000), o);
  }

  @Test
  void readsHudiKeys() {
    BaseFileWriterOptions o = BaseFileWriterOptions.from(Config.of(Map.of(
        "hoodie.parquet.compression.codec", "GZIP",
        "hoodie.parquet.block.size", "1000",
        "hoodie.parquet.page.size", "100",
        "hoodie.parquet.dictionary.enabled", "false",
        "hoodie.bloom.index.filter.type", "simple",
        "hoodie.index.bloom.num_entries", "10",
        "hoodie.index.bloom.fpp", "0.01",
        "hoodie.bloom.index.filter.dynamic.max.entries", "20")));
    assertEquals(new BaseFileWriterOptions("gzip", 1000, 100, false, BloomFilterType.SIMPLE, 10, 0.01, 20), o);
    assertEquals("uncompressed", BaseFileWriterOptions.from(Config.of(Map.of(
        "hoodie.parquet.compression.codec", ""))).codec());
  }

  @Test
  void badValuesAreConfigErrors() {
    for (Map<String, String> bad : new Map[] {
        Map.of("hoodie.parquet.compression.codec", "lzo"),
        Map.of("hoodie.bloom.index.filter.type", "BLOCKED"),
        Map.of("hoodie.index.bloom.fpp", "2"),
        Map.of("hoodie.index.bloom.num_entries", "0"),
        Map.of("hoodie.parquet.block.size", "-1")}) {
      SluiceException e = assertThrows(SluiceException.class, () -> BaseFileWriterOptions.from(Config.of(bad)));
      assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
      assertEquals(true, e.getMessage().contains(bad.keySet().iterator().next()), e.getMessage());
    }
  }
}
