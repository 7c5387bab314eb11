package dev.sluice.internal.write;

import dev.sluice.api.CommitResult;
import dev.sluice.api.ConfigKeys;
import dev.sluice.api.FileWriteResult;
import dev.sluice.api.TableType;
import dev.sluice.api.WriteOperation;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.index.Index;
import dev.sluice.internal.index.Indexes;
import dev.sluice.internal.index.TaggedRecord;
import dev.sluice.internal.marker.Markers;
import dev.sluice.internal.table.PartitionMetadata;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.txn.WriteTransaction;
import dev.sluice.internal.util.Parallel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * One write, in the shape every write and table service has: plan ({@code requested}: prepare, tag, plan per
 * file group) → apply ({@code inflight}: write handles, in parallel, every file behind a marker) → publish
 * ({@code completed}: one atomic create of the completed instant file, after every data file is durable).
 */
public final class TableWriter {
  /** The smallest write memory budget used, whatever is configured. */
  private static final long MIN_WRITE_BUDGET = 64L << 10;

  private final WriteSetup setup;
  private final TimelineStore timelineStore;

  /** A writer for the table described by {@code setup}. */
  public TableWriter(WriteSetup setup) {
    this.setup = setup;
    this.timelineStore = new TimelineStore(setup.storage(), setup.basePath());
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
    boolean combine = op == WriteOperation.UPSERT || op == WriteOperation.DELETE
        ? setup.config().get(ConfigKeys.COMBINE_BEFORE_UPSERT)
        : setup.config().get(ConfigKeys.COMBINE_BEFORE_INSERT);
    // a budget near zero would write one sort run per record
    PreparedBatch.Budget budget = new PreparedBatch.Budget(
        Math.max(MIN_WRITE_BUDGET, setup.config().get(ConfigKeys.WRITE_MAX_MEMORY)),
        Path.of(setup.config().get(ConfigKeys.SPILLABLE_MAP_PATH)));
    // the batch's sort runs, if it spilled, are deleted whatever happens
    try (PreparedBatch batch = new BatchPreparer(setup).prepare(input, op, combine, budget)) {
      return write(op, batch, budget, loaded);
    }
  }

  private Committed write(WriteOperation op, PreparedBatch batch, PreparedBatch.Budget budget, Timeline loaded) {
    Action action = setup.tableConfig().type() == TableType.MERGE_ON_READ ? Action.DELTACOMMIT : Action.COMMIT;
    // rolls back failed writes first, then creates the requested instant
    WriteTransaction txn = WriteTransaction.begin(setup.storage(), setup.basePath(), setup.config(), action, loaded);
    Timeline timeline = txn.timeline();
    Instant requested = txn.requested();
    String instantTime = requested.time();
    Markers markers = new Markers(setup.storage(), setup.basePath(), instantTime);
    try {
      FileSystemView view = FileSystemView.of(setup.storage(), setup.basePath(), timeline);
      List<FileWriteResult> files;
      Instant inflight;
      if (batch.spilled()) {
        try (SpillingWrite spilling = new SpillingWrite(setup, planner(timeline), op, budget)) {
          spilling.route(batch, view);
          // the batch's runs are read: their disk space goes before the file groups are written
          batch.close();
          spilling.plan(view, previousSchema(timeline));
          inflight = timelineStore.transitionToInflight(requested,
              WorkloadProfile.ofCounts(spilling.profile(), op).toJson());
          ensurePartitions(spilling.partitions(), instantTime);
          files = spilling.apply(markers, instantTime);
        }
      } else {
        List<FileGroupWrite> plan = WideningRewrite.complete(plan(op, batch.records(), view, timeline), view, setup,
            previousSchema(timeline));
        inflight = timelineStore.transitionToInflight(requested, WorkloadProfile.of(plan, op).toJson());
        Set<String> partitions = new LinkedHashSet<>();
        plan.forEach(w -> partitions.add(w.id().partitionPath()));
        ensurePartitions(partitions, instantTime);
        files = apply(plan, markers, instantTime);
      }
      CommitMetadata metadata = CommitMetadatas.of(files, op, setup.userSchema(), false);
      Instant completed = txn.publish(inflight, metadata, markers);
      return new Committed(new CommitResult(instantTime, op, files),
          txn.timelineAfterPublish().orElseGet(() -> timeline.plus(completed)));
    } catch (RuntimeException e) {
      throw txn.abort(e);
    } finally {
      txn.close();
    }
  }

  private List<FileGroupWrite> plan(WriteOperation op, List<WriteRecord> records, FileSystemView view, Timeline timeline) {
    WritePlanner planner = planner(timeline);
    if (op == WriteOperation.BULK_INSERT) {
      return bulkInsertPlan(records, planner);
    }
    Index index = Indexes.forConfig(setup.storage(), setup.config());
    List<TaggedRecord> tagged = index.tag(records, view);
    return planner.plan(tagged, view);
  }

  private WritePlanner planner(Timeline timeline) {
    return new WritePlanner(setup, RecordSizeEstimator.averageRecordSize(timelineStore, timeline, setup.config()));
  }

  private List<FileGroupWrite> bulkInsertPlan(List<WriteRecord> records, WritePlanner planner) {
    java.util.Map<String, List<WriteRecord>> byPartition = new java.util.TreeMap<>();
    for (WriteRecord r : records) {
      if (!r.isDelete()) {
        byPartition.computeIfAbsent(r.partitionPath(), p -> new ArrayList<>()).add(r);
      }
    }
    // sorting by key was a third of a bulk insert's time on one thread: partitions sort on the write threads
    List<List<WriteRecord>> parts = new ArrayList<>(byPartition.values());
    Parallel.map(parts, setup.parallelism(), WritePlanner::sortByKey);
    List<FileGroupWrite> out = new ArrayList<>();
    for (java.util.Map.Entry<String, List<WriteRecord>> e : byPartition.entrySet()) {
      out.addAll(planner.newFileGroups(e.getKey(), e.getValue()));
    }
    return out;
  }

  private void ensurePartitions(Set<String> partitions, String instantTime) {
    for (String p : partitions) {
      PartitionMetadata.ensure(setup.storage(), setup.basePath(), p, instantTime);
    }
  }

  private List<FileWriteResult> apply(List<FileGroupWrite> plan, Markers markers, String instantTime) {
    CreateHandle creates = new CreateHandle(setup, markers, instantTime);
    MergeHandle merges = new MergeHandle(setup, markers, instantTime);
    AppendHandle appends = new AppendHandle(setup, markers, instantTime);
    List<Integer> indexes = new ArrayList<>();
    for (int i = 0; i < plan.size(); i++) {
      indexes.add(i);
    }
    List<List<FileWriteResult>> results = Parallel.map(indexes, setup.parallelism(), i -> {
      FileGroupWrite w = plan.get(i);
      if (w instanceof FileGroupWrite.Merge m) {
        return List.of(merges.write(m, i));
      }
      if (w instanceof FileGroupWrite.Append a) {
        return List.of(appends.write(a, i));
      }
      return creates.write((FileGroupWrite.Create) w, i);
    });
    List<FileWriteResult> out = new ArrayList<>();
    results.forEach(out::addAll);
    return out;
  }

  /** The schema of the latest completed commit that recorded one. */
  private Optional<Schema> previousSchema(Timeline timeline) {
    List<Instant> commits = timeline.commitsTimeline().completed().instants();
    for (int i = commits.size() - 1; i >= 0; i--) {
      Optional<String> s = timelineStore.readCommitMetadata(commits.get(i)).flatMap(CommitMetadata::schema);
      if (s.isPresent()) {
        return Optional.of(MetaFields.withoutMetaFields(new Schema.Parser().parse(s.get())));
      }
    }
    return Optional.empty();
  }
}
