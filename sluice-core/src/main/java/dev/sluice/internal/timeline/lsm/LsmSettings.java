package dev.sluice.internal.timeline.lsm;

import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.error.Errors;

/**
 * How the archived timeline of a version-8/9 table is written.
 *
 * @param codec the Parquet codec of its files ({@code hoodie.parquet.compression.codec}, as Hudi uses for them)
 * @param compactionBatchSize files of a layer merged into one of the next ({@code hoodie.timeline.compaction.batch.size})
 */
public record LsmSettings(String codec, int compactionBatchSize) {
  /** Hudi's defaults: gzip (Hudi's codec default), 10 files. */
  public static final LsmSettings DEFAULTS = new LsmSettings("gzip", 10);

  /** Validates: a codec Sluice writes, a positive batch (1, as in Hudi, never merges: a merge takes 2 files). */
  public LsmSettings {
    if (!BaseFileWriterOptions.CODECS.contains(BaseFileWriterOptions.normalizeCodec(codec))) {
      throw Errors.badConfig(ConfigKeys.PARQUET_COMPRESSION.name(), codec, "one of " + BaseFileWriterOptions.CODECS);
    }
    if (compactionBatchSize < 1) {
      throw Errors.badConfig(ConfigKeys.TIMELINE_COMPACTION_BATCH_SIZE.name(), Integer.toString(compactionBatchSize),
          "a positive number");
    }
  }

  /** Reads and validates the keys of {@code config}. */
  public static LsmSettings from(Config config) {
    return new LsmSettings(config.get(ConfigKeys.PARQUET_COMPRESSION),
        config.get(ConfigKeys.TIMELINE_COMPACTION_BATCH_SIZE));
  }
}
