package dev.sluice.internal.service;

import dev.sluice.internal.archive.ArchiveSettings;
import dev.sluice.internal.archive.Archiver;
import dev.sluice.internal.clean.CleanSettings;
import dev.sluice.internal.clean.MetadataCleaner;
import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.compact.MetadataCompactionPlans;
import dev.sluice.internal.mdt.write.MetadataTableWriter;
import dev.sluice.internal.mdt.write.RecordIndexSetup;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.storage.Storage;
import java.util.Optional;

/**
 * The metadata table made ready before a write and its own table services, in the order of Hudi 0.15's
 * {@code performTableServices}: the metadata table prepared (bootstrapped, or removed when off:
 * {@link MetadataTableWriter#prepare(boolean, RecordIndexSetup)}), then its clean ({@code <t>002}, {@link MetadataCleaner}), its
 * compaction ({@code <t>001}, {@link MetadataTableWriter#compactIfDue}) and the archival of its timeline
 * ({@link Archiver#ofMetadataTable}), each a separate step that does nothing unless due. All under the data table's
 * lock, taken only when one of them has something to do: the checks before read the metadata table's timeline (and
 * at most the last metadata clean's metadata), no partition listing.
 */
final class MetadataTableServices {
  private final Storage storage;
  private final String basePath;
  private final CommitSettings commit;
  private final CleanSettings clean;
  private final ArchiveSettings archive;

  MetadataTableServices(Storage storage, String basePath, CommitSettings commit, CleanSettings clean,
      ArchiveSettings archive) {
    this.storage = storage;
    this.basePath = basePath;
    this.commit = commit;
    this.clean = clean;
    this.archive = archive;
  }

  /**
   * Prepares the metadata table (its record index as {@code recordIndex} wants it: built, dropped or left) and runs
   * its services that are due.
   */
  void run(RecordIndexSetup recordIndex) {
    if (!commit.metadataEnabled()) {
      MetadataTableWriter.prepare(storage, basePath, commit);
      return;
    }
    MetadataTableWriter writer = MetadataTableWriter.of(storage, basePath);
    int maxDeltaCommits = commit.metadataCompactMaxDeltaCommits();
    MetadataCleaner cleaner = MetadataCleaner.of(storage, basePath, clean);
    Archiver archiver = Archiver.ofMetadataTable(storage, basePath, archive, cleaner.settings(), maxDeltaCommits);
    // the metadata timeline listed once for both checks; the services list it again under the lock
    Optional<Timeline> ready = writer.preparedTimeline(recordIndex);
    if (ready.isPresent() && !due(ready.get(), writer, cleaner, archiver, maxDeltaCommits)) {
      return;
    }
    InstantLifecycle.of(storage, basePath, commit).locked("prepare the metadata table and run its services", () -> {
      if (writer.prepare(true, recordIndex)) {
        cleaner.cleanIfDue();
        writer.compactIfDue(maxDeltaCommits, new MetadataCompactionPlans(), recordIndex);
        archiver.archive();
      }
      return null;
    });
  }

  private static boolean due(Timeline mdt, MetadataTableWriter writer, MetadataCleaner cleaner, Archiver archiver,
      int maxDeltaCommits) {
    return cleaner.due(mdt) || writer.compactionDue(mdt, maxDeltaCommits).isPresent() || archiver.wouldArchive(mdt);
  }
}
