package dev.sluice.archive;

import dev.sluice.clean.CleanSettings;
import dev.sluice.clean.Cleaner;
import dev.sluice.config.Config;
import dev.sluice.error.Errors;
import dev.sluice.error.SluiceException;
import dev.sluice.storage.Storage;

/**
 * The table services a writer runs after each commit, in Hudi's order ({@code BaseHoodieWriteClient.postCommit}):
 * clean if {@code hoodie.clean.automatic}, then archive if {@code hoodie.archive.automatic}. Settings are read and
 * validated when the services are made, before the write, so a bad value fails the write before it writes anything.
 * With several writers (optimistic concurrency control) archival and clean planning take the table lock.
 */
public final class TableServices {
  private final Config config;
  private final CleanSettings clean;
  private final ArchiveSettings archive;

  private TableServices(Config config) {
    this.config = config;
    this.clean = CleanSettings.from(config);
    this.archive = ArchiveSettings.from(config);
    archive.checkAgainst(clean);
  }

  /** The post-commit services configured by {@code config}; validates their settings. */
  public static TableServices forWrites(Config config) {
    return new TableServices(config);
  }

  /**
   * Runs the enabled services on the table at {@code basePath} after commit {@code instantTime}. A failure is
   * reported as such: the commit stays complete, and the message says so (retrying the write would write twice).
   */
  public void afterCommit(Storage storage, String basePath, String instantTime) {
    if (clean.automatic()) {
      try {
        Cleaner.of(storage, basePath, config).clean();
      } catch (SluiceException e) {
        throw Errors.afterCommit(instantTime, "the automatic clean", e);
      }
    }
    if (archive.automatic()) {
      try {
        Archiver.of(storage, basePath, config).archive();
      } catch (SluiceException e) {
        throw Errors.afterCommit(instantTime, "the automatic archival", e);
      }
    }
  }
}
