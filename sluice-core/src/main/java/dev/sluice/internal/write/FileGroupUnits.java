package dev.sluice.internal.write;

import dev.sluice.api.FileWriteResult;
import dev.sluice.api.WriteOperation;
import dev.sluice.api.WriteToken;
import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.bloom.BloomFilter;
import dev.sluice.internal.commit.Markers;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.mdt.write.RecordIndexChanges;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.spill.SpillableMap;
import dev.sluice.internal.table.PartitionMetadata;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.Storage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;

/**
 * The write's units of work, each on its own, for an engine that runs them apart (tasks of a cluster) and for the
 * spilling write, which runs them one after another: prepare records, combine two versions of a key, find keys in
 * one base file, plan from counts, write one file group. Each is the code a single-machine write runs
 * ({@link BatchPreparer}, the batch's combine rule, {@link WritePlanner}, the handles), not a copy of it.
 */
public final class FileGroupUnits {
  private FileGroupUnits() {
  }

  /**
   * An existing file group holding keys of a batch, as counted by the caller.
   *
   * @param id the file group
   * @param baseInstant the instant of the base file the keys were found in
   * @param updates updates and deletes routed to it
   */
  public record Tagged(FileGroupId id, String baseInstant, long updates) {
  }

  /** {@code input} validated, keyed and (if the operation combines) with duplicate keys combined. */
  public static List<WriteRecord> prepare(WriteSetup setup, Iterator<GenericRecord> input, WriteOperation op) {
    return new BatchPreparer(setup).prepare(input, op, setup.settings().combine(op));
  }

  /** Each record of {@code input} prepared when pulled, none combined or held (see {@code BatchPreparer}). */
  public static Iterator<WriteRecord> prepareEach(WriteSetup setup, Iterator<GenericRecord> input, WriteOperation op) {
    return new BatchPreparer(setup).prepareEach(input, op);
  }

  /** True if the operation combines duplicate keys of a batch ({@code hoodie.combine.before.*}). */
  public static boolean combines(WriteSetup setup, WriteOperation op) {
    return setup.settings().combine(op);
  }

  /** Of two versions of one key, the one a batch keeps: {@code newer} if it wins over {@code older}. */
  public static WriteRecord combine(WriteSetup setup, WriteRecord older, WriteRecord newer) {
    boolean newerWins = setup.merger().newerWins(older.ordering(),
        older.delete() == WriteRecord.DeleteKind.HARD, newer.ordering());
    return newerWins ? newer : older;
  }

  /** {@code r} as bytes (its key, partition, kind and data in the setup's schema). */
  public static byte[] encode(WriteSetup setup, WriteRecord r) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      serializer(setup).write(r, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The record {@link #encode} wrote. */
  public static WriteRecord decode(WriteSetup setup, byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      return serializer(setup).read(in);
    } catch (IOException e) {
      throw Errors.internal("a record's bytes do not decode in the table schema", e);
    }
  }

  /**
   * Which of {@code keys} the base file at {@code path} holds: its bloom filter rules most out, its key column
   * decides (as the bloom index checks a candidate file).
   */
  public static List<String> keysInFile(Storage storage, String path, long size, Collection<String> keys) {
    try (BaseFileReader reader = BaseFileReader.open(storage, path, size)) {
      List<String> candidates = new ArrayList<>();
      BloomFilter bloom = reader.bloomFilter().orElse(null);
      for (String k : keys) {
        if (bloom == null || bloom.mightContain(k)) {
          candidates.add(k);
        }
      }
      return reader.recordKeysFoundAmong(candidates);
    }
  }

  /**
   * The plan of a write from counts alone: {@code tagged} file groups' updates and {@code inserts} per partition,
   * planned by the one {@link WritePlanner} against {@code view} as of {@code timeline}.
   */
  public static List<FileGroupWrite> plan(WriteSetup setup, Timeline timeline, FileSystemView view,
      Collection<Tagged> tagged, Map<String, Long> inserts, boolean bulkInsert) {
    TimelineStore store = new TimelineStore(setup.storage(), setup.basePath(), TimelineLayout.of(setup.tableConfig()));
    WritePlanner planner = new WritePlanner(setup,
        RecordSizeEstimator.averageRecordSize(store.knowing(timeline), timeline, setup.settings()));
    List<PlanSource.TaggedGroup> groups = new ArrayList<>(tagged.size());
    tagged.forEach(t -> groups.add(new PlanSource.TaggedGroup(t.id(), t.baseInstant(), t.updates())));
    return planner.plan(new Counts(groups, inserts), view, bulkInsert);
  }

  /**
   * Moves {@code txn}'s instant to inflight with {@code plan}'s workload profile and writes the partition metadata
   * of the partitions it writes; returns the inflight instant.
   */
  public static Instant start(WriteSetup setup, WriteTransaction txn, List<FileGroupWrite> plan, WriteOperation op) {
    Instant inflight = txn.start(TimelineLayout.of(setup.tableConfig()).encode(WorkloadProfile.of(plan, op)));
    Set<String> partitions = new LinkedHashSet<>();
    plan.forEach(w -> partitions.add(w.id().partitionPath()));
    for (String p : partitions) {
      PartitionMetadata.ensure(setup.storage(), setup.basePath(), p, txn.requested().time());
    }
    return inflight;
  }

  /**
   * A collector of record-index changes when the table keeps a record index in its metadata table (listed in
   * {@code hoodie.table.metadata.partitions}, the metadata table on for the writer), else one that keeps nothing;
   * holding up to an eighth of {@code budget} on the heap.
   */
  static RecordIndexChanges recordIndexChanges(WriteSetup setup, PreparedBatch.Budget budget) {
    if (!hasRecordIndex(setup)) {
      return RecordIndexChanges.none();
    }
    // sorted for the configured minimum, the usual count; a record index built with more shards (Hudi's estimate on a
    // large table, or another writer's settings) gets them re-sorted when they are appended
    return RecordIndexChanges.collecting(Math.max(1, setup.commit().recordIndexSizing().minFileGroups()),
        Math.max(TableWriter.MIN_WRITE_BUDGET, budget.bytes() / 8), budget.spillDirectory());
  }

  /** True if the write keeps the table's record index up to date (its metadata deltacommit carries the changes). */
  public static boolean hasRecordIndex(WriteSetup setup) {
    return setup.commit().metadataEnabled()
        && setup.tableConfig().metadataPartitions().contains(MetadataPartition.RECORD_INDEX.path());
  }

  /** A collector of a distributed write's record-index changes (see {@link #recordIndexChanges}). */
  public static RecordIndexChanges recordIndexChanges(WriteSetup setup) {
    return recordIndexChanges(setup, budget(setup));
  }

  /**
   * Publishes {@code txn}'s write of {@code files} (the results of every file group of the plan; files that markers
   * list but these do not are deleted first): its commit metadata, then the completed instant.
   */
  public static Instant publish(WriteSetup setup, WriteTransaction txn, Instant inflight, List<FileWriteResult> files,
      WriteOperation op) {
    return publish(setup, txn, inflight, files, op, RecordIndexChanges.none());
  }

  /** As {@link #publish(WriteSetup, WriteTransaction, Instant, List, WriteOperation)} with the write's record-index
   * changes {@code recordIndex}, which the metadata table's deltacommit carries. */
  public static Instant publish(WriteSetup setup, WriteTransaction txn, Instant inflight, List<FileWriteResult> files,
      WriteOperation op, RecordIndexChanges recordIndex) {
    CommitMetadata metadata = CommitMetadatas.of(files, op, setup.userSchema(), false);
    // files of failed or duplicate task attempts go before the commit makes the partitions' files visible
    WriteTransaction.reconcileAgainstMarkers(setup.storage(), setup.basePath(), txn.requested().time(), metadata);
    return txn.publish(inflight, metadata, recordIndex);
  }

  /**
   * Writes one planned file group of instant {@code instant}, its files behind markers, as task attempt
   * {@code token}: {@code updates} (its tagged records, any order) and {@code inserts} (its share of the partition's
   * inserts, in key order), each read once. A merge holds the updates in a map of half the write memory budget
   * (spilling past it); an append writes a block per eighth of it.
   */
  public static List<FileWriteResult> write(WriteSetup setup, String instant, FileGroupWrite w,
      Iterator<WriteRecord> updates, Iterator<WriteRecord> inserts, WriteToken token) {
    return write(setup, instant, w, updates, inserts, token, RecordIndexChanges.none());
  }

  /**
   * As {@link #write(WriteSetup, String, FileGroupWrite, Iterator, Iterator, WriteToken)}, the handles telling
   * {@code recordIndex} the keys they write to a new location and the keys they delete.
   */
  public static List<FileWriteResult> write(WriteSetup setup, String instant, FileGroupWrite w,
      Iterator<WriteRecord> updates, Iterator<WriteRecord> inserts, WriteToken token, RecordIndexChanges recordIndex) {
    Markers markers = new Markers(setup.storage(), setup.basePath(), instant);
    // a unit's outcome counts are not gathered: the distributed publish reports files, not what the merge ignored
    return write(setup, PlanSource.Handles.of(setup, markers, instant, recordIndex, new OutcomeCounts()),
        budget(setup), w, updates, inserts, token);
  }

  private static PreparedBatch.Budget budget(WriteSetup setup) {
    return new PreparedBatch.Budget(Math.max(TableWriter.MIN_WRITE_BUDGET, setup.settings().maxMemory()),
        setup.settings().spillDirectory());
  }

  /** {@link #write(WriteSetup, String, FileGroupWrite, Iterator, Iterator, WriteToken)} with given handles. */
  static List<FileWriteResult> write(WriteSetup setup, PlanSource.Handles handles, PreparedBatch.Budget budget,
      FileGroupWrite w, Iterator<WriteRecord> updates, Iterator<WriteRecord> inserts, WriteToken token) {
    WriteRecordSerializer sizes = serializer(setup);
    if (w instanceof FileGroupWrite.Merge m) {
      SpillableMap<WriteRecord> map = SpillableMap.builder(serializer(setup))
          .memoryBudgetBytes(budget.bytes() / 2)
          .spillDirectory(budget.spillDirectory())
          .build();
      try (PendingUpdates pending = PendingUpdates.spilled(map)) {
        while (updates.hasNext()) {
          WriteRecord r = updates.next();
          map.put(r.key(), r);
        }
        return List.of(handles.merges().write(m, pending, inserts, token));
      }
    }
    if (w instanceof FileGroupWrite.Append a) {
      return handles.appends().write(a, updates, token, Math.max(1, budget.bytes() / 8), sizes::estimateSize);
    }
    return handles.creates().write((FileGroupWrite.Create) w, inserts, token);
  }

  private static WriteRecordSerializer serializer(WriteSetup setup) {
    return new WriteRecordSerializer(setup.userSchema(), setup.tableConfig().precombineField());
  }

  /** A batch known by its counts only: it plans, it cannot be applied. */
  private record Counts(Collection<TaggedGroup> taggedGroups, Map<String, Long> insertCounts) implements PlanSource {
    @Override
    public List<FileWriteResult> apply(List<FileGroupWrite> plan, Handles handles) {
      throw Errors.internal("a plan made from counts is written one file group at a time", null);
    }

    @Override
    public void close() {
    }
  }
}
