package dev.sluice.archive;

import dev.sluice.clean.CleanResult;
import dev.sluice.clean.CleanSettings;
import dev.sluice.clean.Cleaner;
import dev.sluice.config.Config;
import dev.sluice.error.Errors;
import dev.sluice.error.SluiceException;
import dev.sluice.storage.Storage;
import dev.sluice.timeline.Timeline;
import java.util.Optional;

/**
 * The table services a writer runs after each commit, in Hudi's order ({@code BaseHoodieWriteClient.postCommit}):
 * clean if {@code hoodie.clean.automatic}, then archive if {@code hoodie.archive.automatic}. Settings are read and
 * validated when the services are made, before the write, so a bad value fails the write before it writes anything.
 */
public final class TableServices {
  private final CleanSettings clean;
  private final ArchiveSettings archive;

  private TableServices(Config config) {
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
    afterCommit(storage, basePath, instantTime, Optional.empty());
  }

  /**
   * As {@link #afterCommit(Storage, String, String)}, starting from {@code known}, the writer's timeline plus its
   * commit: a service that can tell from it that it has nothing to do lists nothing; one that runs loads afresh.
   */
  public void afterCommit(Storage storage, String basePath, String instantTime, Optional<Timeline> known) {
    Optional<Timeline> view = known;
    if (clean.automatic()) {
      try {
        Cleaner cleaner = Cleaner.of(storage, basePath, clean);
        CleanResult cleaned = view.isPresent() ? cleaner.clean(view.get()) : cleaner.clean();
        if (!cleaned.completed().isEmpty()) {
          // the clean changed the timeline
          view = Optional.empty();
        }
      } catch (SluiceException e) {
        throw Errors.afterCommit(instantTime, "the automatic clean", e);
      }
    }
    if (archive.automatic()) {
      try {
        Archiver archiver = Archiver.of(storage, basePath, archive, clean);
        if (view.isPresent()) {
          archiver.archive(view.get());
        } else {
          archiver.archive();
        }
      } catch (SluiceException e) {
        throw Errors.afterCommit(instantTime, "the automatic archival", e);
      }
    }
  }
}
