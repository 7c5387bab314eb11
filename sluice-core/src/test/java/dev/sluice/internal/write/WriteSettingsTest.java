package dev.sluice.internal.write;

import dev.sluice.api.WriteOperation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.read.ReadSettings;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WriteSettingsTest {
  @Test
  void defaultsAreTheKeysDefaults() {
    WriteSettings w = WriteSettings.from(Config.empty());
    assertEquals(ConfigKeys.PARQUET_MAX_FILE_SIZE.defaultValue(), w.maxFileSize());
    assertEquals(ConfigKeys.SMALL_FILE_LIMIT.defaultValue(), w.smallFileLimit());
    assertEquals(ConfigKeys.LOGFILE_MAX_SIZE.defaultValue(), w.logFileMaxSize());
    assertFalse(w.parquetLogBlocks());
    assertFalse(w.index().global());
    assertTrue(w.combine(WriteOperation.UPSERT) && w.combine(WriteOperation.INSERT));
    ReadSettings r = ReadSettings.from(Config.empty());
    assertEquals(1, r.parallelism());
    assertEquals(Path.of(ConfigKeys.SPILLABLE_MAP_PATH.defaultValue()), r.spillDirectory());
    assertFalse(r.incrementalFallbackFullScan());
  }

  @Test
  void hudisKeysAreReadOnceIntoTypedValues() {
    WriteSettings w = WriteSettings.from(Config.of(Map.of("hoodie.parquet.small.file.limit", "0",
        "hoodie.logfile.data.block.format", "PARQUET", "hoodie.index.type", "GLOBAL_SIMPLE",
        "hoodie.combine.before.upsert", "false", "sluice.write.parallelism", "0",
        "hoodie.memory.spillable.map.path", "/tmp/spill-here")));
    assertEquals(0L, w.smallFileLimit());
    assertTrue(w.parquetLogBlocks());
    assertTrue(w.index().global());
    assertFalse(w.combine(WriteOperation.UPSERT));
    assertFalse(w.combine(WriteOperation.DELETE));
    assertTrue(w.combine(WriteOperation.INSERT));
    assertEquals(1, w.parallelism(), "at least one thread");
    assertEquals(Path.of("/tmp/spill-here"), w.spillDirectory());
    ReadSettings r = ReadSettings.from(Config.of(Map.of(
        "hoodie.datasource.read.incr.fallback.fulltablescan.enable", "true", "hoodie.memory.compaction.max.size", "4096")));
    assertTrue(r.incrementalFallbackFullScan());
    assertEquals(4096L, r.logMergeMaxMemory());
  }

  @Test
  void aBadLogBlockFormatOrIndexTypeIsRefusedWhenTheSettingsAreRead() {
    SluiceException e = assertThrows(SluiceException.class,
        () -> WriteSettings.from(Config.of(Map.of("hoodie.logfile.data.block.format", "orc"))));
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    SluiceException h = assertThrows(SluiceException.class,
        () -> WriteSettings.from(Config.of(Map.of("hoodie.logfile.data.block.format", "hfile"))));
    assertEquals(SluiceException.Kind.UNSUPPORTED, h.kind());
    SluiceException i = assertThrows(SluiceException.class,
        () -> WriteSettings.from(Config.of(Map.of("hoodie.index.type", "HBASE"))));
    assertEquals(SluiceException.Kind.BAD_CONFIG, i.kind());
    assertTrue(i.getMessage().contains("hoodie.index.type"), i.getMessage());
  }
}
