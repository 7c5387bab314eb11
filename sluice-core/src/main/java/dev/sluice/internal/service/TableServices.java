package dev.sluice.internal.service;

import dev.sluice.internal.clean.CleanResult;
import dev.sluice.internal.clean.CleanSettings;
import dev.sluice.internal.clean.Cleaner;
import dev.sluice.internal.compact.Compaction;
import dev.sluice.internal.compact.CompactionSettings;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.archive.ArchiveSettings;
import dev.sluice.internal.archive.Archiver;
import dev.sluice.internal.error.Errors;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.mdt.write.RecordIndexSetup;
import dev.sluice.storage.Storage;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.Timeline;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The table services a writer runs after each commit, in Hudi 0.15's order ({@code BaseHoodieWriteClient.commitStats}:
 * {@code mayBeCleanAndArchive}, then {@code runTableServicesInline}): clean if {@code hoodie.clean.automatic}, archive
 * if {@code hoodie.archive.automatic}, then on Merge-on-Read compaction: with {@code hoodie.compact.inline} pending
 * compactions are run, one is scheduled if due and run; with {@code hoodie.compact.schedule.inline} or
 * {@code sluice.compact.async} one is only scheduled (and the background compactor woken). Settings are read and
 * validated when the services are made, before the write, so a bad value fails the write before it writes anything.
 * With several writers (optimistic concurrency control) archival and clean planning take the table lock.
 */
public final class TableServices {
  private final CleanSettings clean;
  private final ArchiveSettings archive;
  private final CompactionSettings compaction;
  private final CommitSettings commit;
  private final Supplier<BaseFileWriterOptions> fileOptions;

  private TableServices(CleanSettings clean, ArchiveSettings archive, CompactionSettings compaction,
      CommitSettings commit, Supplier<BaseFileWriterOptions> fileOptions) {
    this.clean = clean;
    this.archive = archive;
    this.compaction = compaction;
    this.commit = commit;
    this.fileOptions = fileOptions;
    archive.checkAgainst(clean);
  }

  /**
   * The post-commit services with these settings; checks that archival keeps what the cleaner needs.
   * {@code fileOptions} gives the base file options of an inline compaction when it runs.
   */
  public static TableServices of(CleanSettings clean, ArchiveSettings archive, CompactionSettings compaction,
      CommitSettings commit, Supplier<BaseFileWriterOptions> fileOptions) {
    return new TableServices(clean, archive, compaction, commit, fileOptions);
  }

  /**
   * Before a write: the metadata table of the table at {@code basePath} made ready for the write's mirror commit
   * (bootstrapped if missing, removed when off), then its own clean, compaction and archival when due
   * ({@link MetadataTableServices}).
   */
  public void prepareMetadataTable(Storage storage, String basePath, RecordIndexSetup recordIndex) {
    new MetadataTableServices(storage, basePath, commit, clean, archive).run(recordIndex);
  }

  /** The compaction settings of these services. */
  public CompactionSettings compaction() {
    return compaction;
  }

  /**
   * Runs the enabled services on the table at {@code basePath}, of type {@code type}, after commit
   * {@code instantTime}, starting from {@code known}, the writer's timeline plus its commit: a service that can tell
   * from it that it has nothing to do lists nothing; one that runs loads afresh. {@code async} is woken when a
   * compaction was scheduled. A failure is reported as such: the commit stays complete, and the message says so
   * (retrying the write would write twice).
   */
  public void afterCommit(Storage storage, String basePath, TableType type, String instantTime,
      Optional<Timeline> known, Optional<Compactor> async) {
    Optional<Timeline> view = known;
    if (clean.automatic()) {
      try {
        Cleaner cleaner = Cleaner.of(storage, basePath, clean, commit);
        CleanResult cleaned = view.isPresent() ? cleaner.clean(view.get()) : cleaner.clean();
        if (!cleaned.completed().isEmpty()) {
          // the clean changed the timeline
          view = Optional.empty();
        }
      } catch (SluiceException e) {
        throw Errors.afterCommit(instantTime, "the automatic clean", e);
      }
    }
    archiveAfterCommit(storage, basePath, instantTime, view);
    // the writer knows the table type: no second read of hoodie.properties per commit
    if (compaction.schedulesAfterWrites() && type == TableType.MERGE_ON_READ) {
      try {
        compact(Compaction.of(storage, basePath, compaction, commit, fileOptions), async);
      } catch (SluiceException e) {
        throw Errors.afterCommit(instantTime, compaction.inline() ? "the inline compaction"
            : "scheduling a compaction", e);
      }
    }
  }

  /**
   * The automatic archival alone ({@code hoodie.archive.automatic}) after commit {@code instantTime}, from
   * {@code known} as in {@link #afterCommit}: the only post-commit service Sluice runs on versions 8/9 so far.
   */
  public void archiveAfterCommit(Storage storage, String basePath, String instantTime, Optional<Timeline> known) {
    if (!archive.automatic()) {
      return;
    }
    try {
      Archiver archiver = Archiver.of(storage, basePath, archive, clean, commit);
      if (known.isPresent()) {
        archiver.archive(known.get());
      } else {
        archiver.archive();
      }
    } catch (SluiceException e) {
      throw Errors.afterCommit(instantTime, "the automatic archival", e);
    }
  }

  private void compact(Compaction c, Optional<Compactor> async) {
    if (compaction.inline()) {
      // runAnyPendingCompactions, then inlineCompaction
      c.runPending();
      c.schedule().ifPresent(c::run);
      return;
    }
    Optional<String> scheduled = c.schedule();
    if (scheduled.isPresent() && compaction.async()) {
      async.ifPresent(Compactor::wake);
    }
  }
}
