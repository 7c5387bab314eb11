package dev.sluice.internal.write;

import dev.sluice.internal.util.ParsedSchemas;
import dev.sluice.api.CommitResult;
import dev.sluice.api.FileWriteResult;
import dev.sluice.api.Progress;
import dev.sluice.api.ProgressListener;
import dev.sluice.api.TableType;
import dev.sluice.api.WriteOperation;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.index.FooterPreload;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.mdt.write.RecordIndexChanges;
import dev.sluice.internal.commit.Markers;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.util.ProgressMeter;
import dev.sluice.storage.StoragePaths;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * One write, in the shape every write and table service has: plan ({@code requested}: prepare, tag, plan per
 * file group) → apply ({@code inflight}: write handles, in parallel, every file behind a marker) → publish
 * ({@code completed}: one atomic create of the completed instant file, after every data file is durable).
 */
public final class TableWriter {
  /** The smallest write memory budget used, whatever is configured. */
  static final long MIN_WRITE_BUDGET = 64L << 10;

  private final WriteSetup setup;
  private final TimelineStore timelineStore;
  private final ProgressListener progress;

  /** A writer for the table described by {@code setup}. */
  public TableWriter(WriteSetup setup) {
    this(setup, ProgressListener.NONE);
  }

  private TableWriter(WriteSetup setup, ProgressListener progress) {
    this.setup = setup;
    this.timelineStore = new TimelineStore(setup.storage(), setup.basePath(), TimelineLayout.of(setup.tableConfig()));
    this.progress = progress;
  }

  /** This writer reporting the progress of its input read, tagging and file group writes to {@code listener}. */
  public TableWriter withProgress(ProgressListener listener) {
    return new TableWriter(setup, listener);
  }

  /**
   * What a write committed, with the timeline the writer last saw plus its completed instant.
   *
   * @param result what the write committed
   * @param timeline the timeline after the commit, as far as this writer knows without listing again
   */
  public record Committed(CommitResult result, Timeline timeline) {
  }

  /** Runs one write of {@code input} and returns what it committed. */
  public CommitResult write(WriteOperation op, Iterator<GenericRecord> input) {
    return write(op, input, timelineStore.load()).result();
  }

  /**
   * Runs one write of {@code input} starting from {@code loaded}, the timeline the caller loaded for this operation
   * (the write does not list {@code .hoodie/} again unless it rolls back a failed write or checks for conflicts).
   */
  public Committed write(WriteOperation op, Iterator<GenericRecord> input, Timeline loaded) {
    return write(op, input, loaded, s -> s);
  }

  /**
   * Runs one write as {@link #write(WriteOperation, Iterator, Timeline)}, with {@code prepareTable} run once the whole
   * input is read and checked and before the instant is requested. It makes the table ready for this write (the
   * metadata table bootstrapped) and returns the setup to write with. It runs that late because a batch refused for a
   * bad record must leave the table exactly as it was: no metadata table built for a write that never happened.
   */
  public Committed write(WriteOperation op, Iterator<GenericRecord> input, Timeline loaded,
      UnaryOperator<WriteSetup> prepareTable) {
    boolean combine = setup.settings().combine(op);
    // a budget near zero would write one sort run per record
    PreparedBatch.Budget budget = new PreparedBatch.Budget(
        Math.max(MIN_WRITE_BUDGET, setup.settings().maxMemory()), setup.settings().spillDirectory());
    OutcomeCounts counts = new OutcomeCounts();
    BatchPreparer preparer = new BatchPreparer(setup, counts);
    ProgressMeter read = ProgressMeter.start(progress, Progress.Step.READ_INPUT, -1, ProgressMeter.RECORD_STRIDE);
    // the table's footers do not depend on the input: read on a thread of their own while the input is read, the key
    // lookups find them ready; its thread ends with the write, whatever happens
    // the batch's sort runs, if it spilled, are deleted whatever happens
    try (FooterPreload footers = preloadFooters(op, loaded, budget);
        PreparedBatch batch = preparer.prepare(input, op, combine, budget, read)) {
      read.finish();
      if (batch.added() == 0) {
        // nothing to write: no instant, no metadata table bootstrap, the table exactly as it was
        return new Committed(CommitResult.nothingCommitted(op, orderingField()), loaded);
      }
      refuseDeletesWithoutPartition(preparer, counts);
      WriteSetup prepared = prepareTable.apply(setup);
      TableWriter writer = prepared == setup ? this : new TableWriter(prepared, progress);
      // preparing the table touches only its metadata table: the preload's listing stays the table's as loaded unless
      // that changed which metadata partitions the table keeps (then the write lists it anew)
      boolean asLoaded = prepared.tableConfig().metadataPartitions().equals(setup.tableConfig().metadataPartitions());
      return writer.write(op, batch, budget, loaded, counts, footers, asLoaded);
    }
  }

  /**
   * Starts reading the footers of the latest base files as of {@code loaded} for the key lookups of a write that
   * tags ({@link FooterPreload}), holding at most an eighth of the write memory budget of them.
   */
  private FooterPreload preloadFooters(WriteOperation op, Timeline loaded, PreparedBatch.Budget budget) {
    if (op == WriteOperation.BULK_INSERT) {
      return FooterPreload.NONE;
    }
    return FooterPreload.start(setup.storage(), () -> MetadataTables.view(setup.storage(), setup.basePath(), loaded,
        setup.tableConfig(), setup.commit().metadataEnabled()), setup.settings().index(), budget.bytes() / 8);
  }

  /** The ordering field versions of a key are compared by, if the table has one. */
  private Optional<String> orderingField() {
    return setup.tableConfig().precombineField();
  }

  /**
   * Refuses a delete none of whose rows name a partition, on a partitioned table with a non-global index, when the
   * default partition they would be looked up in does not exist: nothing could be deleted, and a commit that deletes
   * nothing would hide the mistake. Checked before the instant is requested, so the table stays as it was.
   */
  private void refuseDeletesWithoutPartition(BatchPreparer preparer, OutcomeCounts counts) {
    long without = counts.deletesWithoutPartition.sum();
    Optional<String> path = preparer.missingPartitionPath();
    if (without == 0 || without < counts.received.sum() || path.isEmpty()) {
      return;
    }
    String dir = StoragePaths.join(setup.basePath(), path.get());
    boolean exists;
    try {
      exists = setup.storage().info(dir).isPresent();
    } catch (IOException e) {
      throw Errors.storage("check for the default partition", dir, e);
    }
    if (!exists) {
      List<String> fields = preparer.partitionFields();
      throw Errors.badInput("the delete rows of " + setup.basePath(), String.join(",", fields), "none of the " + without
          + " rows has a value for it, and with the non-global index " + setup.settings().index().type()
          + " a record key is looked up only in its own partition, so no key could be found (nothing was written)",
          "each row's partition path value beside its record key, or a global index (hoodie.index.type="
          + "GLOBAL_BLOOM, GLOBAL_SIMPLE or RECORD_INDEX)");
    }
  }

  private Committed write(WriteOperation op, PreparedBatch batch, PreparedBatch.Budget budget, Timeline loaded,
      OutcomeCounts counts, FooterPreload footers, boolean tableAsLoaded) {
    Action action = setup.tableConfig().type() == TableType.MERGE_ON_READ ? Action.DELTACOMMIT : Action.COMMIT;
    // rolls back failed writes first, then creates the requested instant
    WriteTransaction txn = WriteTransaction.begin(setup.storage(), setup.basePath(), setup.commit(), action, loaded);
    Timeline timeline = txn.timeline();
    Instant requested = txn.requested();
    String instantTime = requested.time();
    Markers markers = new Markers(setup.storage(), setup.basePath(), instantTime);
    // the record index's changes of this write, fed by the handles, spilled past their share of the budget
    try (RecordIndexChanges recordIndex = recordIndexChanges(budget)) {
      // tagging and planning need the committed files only: the metadata table lists them when it is valid
      // the preload listed the table as loaded: when beginning the write changed no instant but its own (nothing
      // rolled back), the view takes that listing rather than reading the metadata table's files partition again
      Optional<FileSystemView> listed = tableAsLoaded ? footers.listedView().filter(v ->
          timeline.equals(v.timeline()) || timeline.equals(v.timeline().plus(requested))) : Optional.empty();
      FileSystemView view = listed.isPresent() ? listed.get().withTimeline(timeline)
          : MetadataTables.view(setup.storage(), setup.basePath(), timeline, setup.tableConfig(),
              setup.commit().metadataEnabled());
      WritePlanner planner = planner(timeline);
      List<FileWriteResult> files;
      Instant inflight;
      // the planner plans from counts, whether the batch is held in memory or spilled; the source hands out records
      // bulk insert does not tag; a spilled batch is combined as it is tagged, so its count is known only after
      if (batch.spilled()) {
        // a spilled batch is tagged chunk by chunk by indexes of its own, which do not take preloaded footers
        footers.close();
      }
      ProgressMeter tag = op == WriteOperation.BULK_INSERT ? ProgressMeter.OFF : ProgressMeter.start(progress,
          Progress.Step.TAG, batch.spilled() ? -1 : batch.records().size(), ProgressMeter.RECORD_STRIDE);
      try (PlanSource source = batch.spilled() ? spilled(batch, planner, op, budget, view, counts, tag)
          : InMemoryBatch.of(setup, op, batch.records(), view, counts, tag, footers)) {
        tag.finish();
        // tagged: the preloaded footers are not needed any more
        footers.close();
        List<FileGroupWrite> plan = WideningRewrite.complete(
            planner.plan(source, view, op == WriteOperation.BULK_INSERT), view, setup, previousSchema(timeline));
        inflight = FileGroupUnits.start(setup, txn, plan, op);
        ProgressMeter written = ProgressMeter.start(progress, Progress.Step.WRITE_FILE_GROUPS,
            GroupProgress.total(plan), ProgressMeter.RECORD_STRIDE);
        files = source.apply(plan, PlanSource.Handles.of(setup, markers, instantTime, recordIndex, counts)
            .reporting(written));
        written.finish();
      }
      CommitMetadata metadata = CommitMetadatas.of(files, op, setup.userSchema(), false);
      Instant completed = txn.publish(inflight, metadata, recordIndex);
      return new Committed(new CommitResult(instantTime, op, files, counts.outcome(orderingField())),
          txn.timelineAfterPublish().orElseGet(() -> timeline.plus(completed)));
    } catch (RuntimeException e) {
      throw txn.abort(e);
    } finally {
      txn.close();
    }
  }

  /**
   * A collector of record-index changes when the table keeps a record index in its metadata table (listed in
   * {@code hoodie.table.metadata.partitions}), else one that keeps nothing.
   */
  private RecordIndexChanges recordIndexChanges(PreparedBatch.Budget budget) {
    return FileGroupUnits.recordIndexChanges(setup, budget);
  }


  /** Tags and routes a spilled batch into a spilling write, then lets the batch's sort runs go. */
  private SpillingWrite spilled(PreparedBatch batch, WritePlanner planner, WriteOperation op,
      PreparedBatch.Budget budget, FileSystemView view, OutcomeCounts counts, ProgressMeter tag) {
    SpillingWrite spilling = new SpillingWrite(setup, planner, op, budget, counts);
    try {
      spilling.route(batch, view, tag);
    } catch (RuntimeException e) {
      spilling.close();
      throw e;
    }
    // the batch's runs are read: their disk space goes before the file groups are written
    batch.close();
    return spilling;
  }

  private WritePlanner planner(Timeline timeline) {
    return new WritePlanner(setup, RecordSizeEstimator.averageRecordSize(timelineStore.knowing(timeline), timeline,
        setup.settings()));
  }

  /** The schema of the latest completed commit that recorded one. */
  private Optional<Schema> previousSchema(Timeline timeline) {
    List<Instant> commits = timeline.commitsTimeline().completed().instants();
    for (int i = commits.size() - 1; i >= 0; i--) {
      Optional<String> s = timelineStore.readCommitMetadata(commits.get(i)).flatMap(CommitMetadata::schema);
      if (s.isPresent()) {
        return Optional.of(MetaFields.withoutMetaFields(ParsedSchemas.parse(s.get())));
      }
    }
    return Optional.empty();
  }
}
