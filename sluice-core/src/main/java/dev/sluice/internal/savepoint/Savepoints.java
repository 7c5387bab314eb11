package dev.sluice.internal.savepoint;

import dev.sluice.internal.commit.InstantAction;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.commit.Publish;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.rollback.Rollbacks;
import dev.sluice.storage.Storage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.avro.AvroContainer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * Savepoints ({@code SavepointActionExecutor}, {@code SavepointHelpers}): a savepoint marks a completed commit whose
 * files the cleaner must keep, so the table can be restored to it. It is {@code <ts>.savepoint.inflight} (empty)
 * then {@code <ts>.savepoint} (Avro {@code HoodieSavepointMetadata}), at the savepointed commit's own time.
 */
public final class Savepoints {
  private final Storage storage;
  private final String basePath;
  private final TimelineStore store;
  private final InstantLifecycle lifecycle;
  private final boolean metadataEnabled;

  /**
   * Savepoints of the table at {@code basePath}; they take no lock (a caller that shares the table with other
   * writers runs them inside {@link InstantLifecycle#locked}). Lists storage. Does no I/O.
   */
  public Savepoints(Storage storage, String basePath) {
    this(storage, basePath, false);
  }

  /**
   * As {@link #Savepoints(Storage, String)}; with {@code metadataEnabled} the savepoint lists its files through the
   * metadata table when it is consistent with the timeline (as Hudi's savepoint does).
   */
  public Savepoints(Storage storage, String basePath, boolean metadataEnabled) {
    this.metadataEnabled = metadataEnabled;
    this.storage = storage;
    this.basePath = basePath;
    this.store = new TimelineStore(storage, basePath);
    this.lifecycle = InstantLifecycle.withoutLock(storage, basePath, false);
  }

  /**
   * Savepoints {@code instantTime} (the latest completed commit if empty) and returns its metadata. The commit must
   * be completed and not older than what the last clean retained.
   */
  public SavepointMetadata create(Optional<String> instantTime, String user, String comment) {
    Timeline tl = store.load();
    Rollbacks.requireNoPendingRestore(tl, "Savepointing " + basePath);
    Timeline commits = tl.commitsTimeline().completed();
    if (commits.isEmpty()) {
      throw Errors.badRequest("Savepointing " + basePath, "the table has no completed commit", "Write to it first.");
    }
    String time = instantTime.orElseGet(() -> commits.lastInstant().orElseThrow().time());
    if (!commits.isCompleted(time) || commits.find(time).isEmpty()) {
      throw Errors.badRequest("Savepointing instant " + time, "it is not a completed commit of the table",
          "Name a completed commit (sluice timeline TABLE).");
    }
    Optional<Instant> existing = tl.filter(i -> i.action() == Action.SAVEPOINT && i.time().equals(time)).lastInstant();
    if (existing.isPresent() && existing.get().isCompleted()) {
      throw Errors.badRequest("Savepointing instant " + time, "it is savepointed already", "Nothing to do.");
    }
    String retained = lastCommitRetained(tl).orElseGet(() -> commits.firstInstant().orElseThrow().time());
    if (InstantTimes.isBefore(time, retained)) {
      throw Errors.badRequest("Savepointing instant " + time, "it is older than " + retained + ", the earliest commit the "
          + "last clean kept, so its files may be gone", "Savepoint a later commit.");
    }
    FileSystemView view = (metadataEnabled
        ? MetadataTables.view(storage, basePath, tl, TableConfigStore.read(storage, basePath), true)
        : FileSystemView.of(storage, basePath, tl)).asOf(time);
    Map<String, List<String>> files = new LinkedHashMap<>();
    for (String partition : view.partitions()) {
      List<String> names = new ArrayList<>();
      for (FileSlice s : view.latestSlices(partition)) {
        s.baseFile().ifPresent(b -> names.add(b.fileName()));
        for (LogFile l : s.logFiles()) {
          names.add(l.fileName());
        }
      }
      files.put(partition, names);
    }
    SavepointMetadata md = new SavepointMetadata(user, System.currentTimeMillis(), comment, files, 1);
    // a savepoint has no requested state; if an earlier savepoint of this commit died before completing, this one
    // completes it
    return lifecycle.runWithoutRequest(Instant.inflight(time, Action.SAVEPOINT), existing.isPresent(), Publish.DIRECT,
        "savepoint " + time, InstantAction.of(inflight -> md, SavepointMetadata::toAvroBytes));
  }

  /** Deletes the savepoint at {@code instantTime} (completed file first, then the inflight file). */
  public void delete(String instantTime) {
    Timeline tl = store.load();
    Optional<Instant> sp = tl.filter(i -> i.action() == Action.SAVEPOINT && i.time().equals(instantTime)).lastInstant();
    if (sp.isEmpty()) {
      throw Errors.badRequest("Deleting savepoint " + instantTime, "there is no savepoint at that instant (savepoints: "
          + list(tl) + ")", "Name a savepoint (sluice timeline TABLE).");
    }
    store.deleteInstantFiles(sp.get());
  }

  /** The times of the completed savepoints, oldest first. */
  public static List<String> list(Timeline tl) {
    List<String> out = new ArrayList<>();
    tl.filter(i -> i.action() == Action.SAVEPOINT && i.isCompleted()).instants().forEach(i -> out.add(i.time()));
    return out;
  }

  /** The savepoint metadata at {@code instantTime}, if there is a completed savepoint there. */
  public Optional<SavepointMetadata> read(String instantTime) {
    Instant sp = Instant.completed(instantTime, Action.SAVEPOINT);
    return store.readIfExists(sp).map(b -> SavepointMetadata.fromAvroBytes(b, store.pathOf(sp)));
  }

  /**
   * The earliest commit the last clean kept ({@code earliestCommitToRetain} of a completed clean, or
   * {@code earliestInstantToRetain} of a pending clean's plan), read from Hudi's Avro in its own schema.
   */
  private Optional<String> lastCommitRetained(Timeline tl) {
    Optional<Instant> clean = tl.filter(i -> i.action() == Action.CLEAN).lastInstant();
    if (clean.isEmpty()) {
      return Optional.empty();
    }
    Instant c = clean.get();
    Instant file = c.isCompleted() ? c : Instant.requested(c.time(), Action.CLEAN);
    Optional<byte[]> bytes = store.readIfExists(file);
    if (bytes.isEmpty() || bytes.get().length == 0) {
      return Optional.empty();
    }
    GenericRecord r = AvroContainer.readRequired(bytes.get(), store.pathOf(file));
    if (c.isCompleted()) {
      Object v = r.getSchema().getField("earliestCommitToRetain") == null ? null : r.get("earliestCommitToRetain");
      return v == null || v.toString().isEmpty() ? Optional.empty() : Optional.of(v.toString());
    }
    Object e = r.getSchema().getField("earliestInstantToRetain") == null ? null : r.get("earliestInstantToRetain");
    if (e instanceof GenericRecord g && g.get("timestamp") != null) {
      return Optional.of(g.get("timestamp").toString());
    }
    return Optional.empty();
  }
}
