package dev.sluice.testing;

import dev.sluice.api.Config;
import dev.sluice.internal.archive.ArchiveSettings;
import dev.sluice.internal.archive.Archiver;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.clean.CleanSettings;
import dev.sluice.internal.clean.Cleaner;
import dev.sluice.internal.compact.CompactionSettings;
import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.service.TableServices;
import dev.sluice.storage.Storage;

/**
 * Engine services made from a {@link Config} the way {@code dev.sluice.api} makes them (its converter is package
 * private), for tests that drive the engine below the API with option maps.
 */
public final class EngineSettings {
  private EngineSettings() {
  }

  /** The cleaner with {@code config}'s cleaner and commit options. */
  public static Cleaner cleaner(Storage storage, String basePath, Config config) {
    return Cleaner.of(storage, basePath, CleanSettings.from(config), CommitSettings.from(config));
  }

  /** The archiver with {@code config}'s archival, cleaner and commit options. */
  public static Archiver archiver(Storage storage, String basePath, Config config) {
    return Archiver.of(storage, basePath, ArchiveSettings.from(config), CleanSettings.from(config),
        CommitSettings.from(config));
  }

  /** A write's post-commit services with {@code config}'s options; checks them as a write does. */
  public static TableServices services(Config config) {
    return TableServices.of(CleanSettings.from(config), ArchiveSettings.from(config), CompactionSettings.from(config),
        CommitSettings.from(config), () -> BaseFileWriterOptions.from(config));
  }
}
