package dev.sluice.write;

import dev.sluice.error.Errors;
import dev.sluice.marker.Marker;
import dev.sluice.marker.Markers;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.timeline.Instant;
import dev.sluice.timeline.TimelineStore;
import java.io.IOException;

/**
 * Removes what a failed, never-completed write left behind: every file its markers name, the markers
 * themselves, then its timeline files (last, so a crash in between leaves the instant for the next cleanup).
 */
final class FailedWriteCleaner {
  private final Storage storage;
  private final String basePath;

  FailedWriteCleaner(Storage storage, String basePath) {
    this.storage = storage;
    this.basePath = basePath;
  }

  void clean(Instant instant, Markers markers) {
    for (Marker m : markers.list()) {
      String rel = m.partitionPath().isEmpty() ? m.fileName() : m.partitionPath() + "/" + m.fileName();
      String path = StoragePaths.join(basePath, rel);
      try {
        storage.delete(path);
      } catch (IOException e) {
        throw Errors.storage("delete file of failed write", path, e);
      }
    }
    markers.deleteAll();
    new TimelineStore(storage, basePath).deleteInstantFiles(instant);
  }
}
