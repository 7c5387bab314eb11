package dev.sluice.internal.index;

import dev.sluice.api.TableType;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileGroup;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.mdt.RecordLocation;
import dev.sluice.internal.mdt.read.MetadataTableReader;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.util.Parallel;
import dev.sluice.storage.Storage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code hoodie.index.type=RECORD_INDEX}: tagging through the metadata table's {@code record_index} partition, as
 * Hudi 0.15's Spark writer does ({@code SparkMetadataTableRecordIndex}). Global: a key the index holds is an update
 * of the file group it names (in that partition; with {@code hoodie.record.index.update.partition.path} a record
 * arriving in another partition is deleted there and inserted in its new one), any other key an insert.
 *
 * <p>Lookups: the batch's distinct keys are routed to their shard ({@link MetadataPartition#fileGroupIndex}), each
 * shard's keys looked up in one {@link MetadataTableReader#recordLocations} call (the shard's base HFile opened once,
 * each key a block-index seek; its log blocks likewise), shards in parallel. A shard with more than
 * {@code chunkKeys} keys is looked up in chunks of that many, so that the keys and locations in flight stay bounded
 * whatever the batch; a spilled write already tags in memory-sized chunks of its own.
 *
 * <p>A location whose file group the file-system view does not have (a group replaced by an insert-overwrite or a
 * clustering of a writer that left the index pointing at it, or an index ahead of what this writer sees) is not
 * trusted: those records are looked up again with a global bloom lookup over the base files, so a key that lives
 * elsewhere is updated there and a key that lives nowhere becomes an insert. Hudi 0.15 instead tags such a record
 * to the missing group (a Copy-on-Write merge then fails, a Merge-on-Read append starts a log-only group) unless
 * {@code hoodie.record.index.update.partition.path} is true, when it becomes an insert; neither can duplicate a key
 * that lives elsewhere only because the index is assumed exact, which the re-check does not assume.
 *
 * <p>Fallback: without a record index to trust (the metadata table off for this writer, {@code record_index} not in
 * {@code hoodie.table.metadata.partitions}, the metadata table missing or behind the timeline, the partition
 * without file groups, or shards whose base files hold keys that hash elsewhere, as Hudi 0.15's Java client writes
 * a record index it builds over existing data: checked on the leading keys of each shard's base file) the index
 * tags as {@code GLOBAL_SIMPLE} does, with the record index's update-partition-path setting (Hudi's fallback takes
 * {@code hoodie.simple.index.update.partition.path}; here a key moves or not whether or not the index is there),
 * and logs a warning naming the reason once per index; never an empty lookup, which would turn every existing key
 * into a duplicate.
 */
final class RecordLevelIndex implements Index {
  /** Keys per record-index lookup: a million keys and their locations are a few hundred MB on the heap. */
  static final int CHUNK_KEYS = 250_000;
  /** Leading keys of each shard's base file checked to hash to it: a shard built wrong holds keys of all hashes. */
  static final int SHARD_SAMPLE = 32;

  private static final System.Logger LOG = System.getLogger(RecordLevelIndex.class.getName());

  private final Storage storage;
  private final IndexedTable table;
  private final IndexSettings settings;
  private final int chunkKeys;
  private final AtomicLong filesOpened = new AtomicLong();
  private final AtomicLong shardFilesOpened = new AtomicLong();
  /** The record index as resolved for a timeline: tagging calls on the same timeline check it once. */
  private Timeline resolvedFor;
  private Resolved resolved;

  /** The reader of a usable record index and its shard count, or the reason there is none. */
  private record Resolved(Optional<MetadataTableReader> reader, int shards, String reason) {
  }

  RecordLevelIndex(Storage storage, IndexedTable table, IndexSettings settings, int chunkKeys) {
    this.storage = storage;
    this.table = table;
    this.settings = settings;
    this.chunkKeys = chunkKeys;
  }

  @Override
  public boolean isGlobal() {
    return true;
  }

  /**
   * Files opened by the last {@link #tag} call: the record index's base HFiles ({@link #shardFilesOpened}) plus the
   * data table's base files a fallback or a re-check opened.
   */
  @Override
  public long filesOpened() {
    return filesOpened.get();
  }

  /** Record-index base HFiles opened by the last {@link #tag} call (at most one per shard and chunk). */
  long shardFilesOpened() {
    return shardFilesOpened.get();
  }

  /** Why this index tagged as {@code GLOBAL_SIMPLE}, if the last resolved timeline had no usable record index. */
  Optional<String> fallbackReason() {
    return resolved == null || resolved.reader().isPresent() ? Optional.empty() : Optional.of(resolved.reason());
  }

  @Override
  public List<TaggedRecord> tag(List<WriteRecord> records, FileSystemView view) {
    filesOpened.set(0);
    shardFilesOpened.set(0);
    Resolved r = resolve(view.timeline());
    if (r.reader().isEmpty()) {
      Index fallback = Indexes.globalSimple(storage, settings);
      List<TaggedRecord> out = fallback.tag(records, view);
      filesOpened.set(fallback.filesOpened());
      return out;
    }
    MetadataTableReader reader = r.reader().get();
    Map<String, RecordLocation> found = lookup(reader, r.shards(), records);
    Map<String, Map<String, FileGroup>> groups = new HashMap<>();
    // the partitions the found keys live in, listed in one batched lookup of the metadata table
    view.prefetch(found.values().stream().map(RecordLocation::partition).distinct().toList());
    List<TaggedRecord> out = new ArrayList<>(records.size());
    List<WriteRecord> recheck = new ArrayList<>();
    for (WriteRecord rec : records) {
      RecordLocation at = found.get(rec.key());
      if (at == null) {
        out.add(TaggedRecord.insert(rec));
        continue;
      }
      Optional<Location> loc = locate(at, view, groups);
      if (loc.isPresent()) {
        KeyLookupIndex.tagFound(rec, loc.get(), settings.updatePartitionPath(), out);
      } else {
        recheck.add(rec);
      }
    }
    if (!recheck.isEmpty()) {
      LOG.log(System.Logger.Level.WARNING, () -> "the record index of " + table.basePath() + " names file groups "
          + "the table does not have for " + recheck.size() + " key(s) (e.g. " + recheck.get(0).key() + " -> "
          + found.get(recheck.get(0).key()) + "): looking them up in the base files instead");
      Index exact = new KeyLookupIndex(storage, new BloomCandidates(settings.pruneByRanges()), true,
          settings.updatePartitionPath(), settings.threads());
      out.addAll(exact.tag(recheck, view));
      filesOpened.addAndGet(exact.filesOpened());
    }
    return out;
  }

  /** The record index's shard count as of {@code timeline}; empty if it cannot be used (tag as GLOBAL_SIMPLE). */
  Optional<Integer> shards(Timeline timeline) {
    Resolved r = resolve(timeline);
    return r.reader().isPresent() ? Optional.of(r.shards()) : Optional.empty();
  }

  /**
   * The record index's locations of {@code keys} (those it holds) as of {@code timeline}, for a distributed lookup
   * whose driver found the index usable ({@link #shards}); a conflict if it no longer is.
   */
  Map<String, RecordLocation> locations(Timeline timeline, List<String> keys) {
    Resolved r = resolve(timeline);
    if (r.reader().isEmpty()) {
      throw Errors.conflict("A record-index lookup in " + table.basePath(),
          "the record index the write started with cannot be used any more: " + r.reason());
    }
    Map<String, RecordLocation> found = new HashMap<>();
    for (int from = 0; from < keys.size(); from += chunkKeys) {
      found.putAll(r.reader().get().recordLocations(keys.subList(from, Math.min(keys.size(), from + chunkKeys))));
    }
    return found;
  }

  /** The record index's locations of the batch's keys (those it holds), shard by shard, in bounded chunks. */
  private Map<String, RecordLocation> lookup(MetadataTableReader reader, int shards, List<WriteRecord> records) {
    Map<Integer, List<String>> byShard = new TreeMap<>();
    for (WriteRecord rec : records) {
      byShard.computeIfAbsent(MetadataPartition.fileGroupIndex(rec.key(), shards), s -> new ArrayList<>())
          .add(rec.key());
    }
    List<List<String>> tasks = new ArrayList<>();
    for (List<String> keys : byShard.values()) {
      for (int from = 0; from < keys.size(); from += chunkKeys) {
        tasks.add(keys.subList(from, Math.min(keys.size(), from + chunkKeys)));
      }
    }
    long before = reader.baseFilesOpened();
    Map<String, RecordLocation> found = new HashMap<>();
    for (Map<String, RecordLocation> part : Parallel.map(tasks, settings.threads(), reader::recordLocations)) {
      found.putAll(part);
    }
    long opened = reader.baseFilesOpened() - before;
    shardFilesOpened.set(opened);
    filesOpened.addAndGet(opened);
    return found;
  }

  /**
   * The location of {@code at} in {@code view}: its file group's current base file (Copy-on-Write) or latest slice
   * (Merge-on-Read); empty if the view has no such group to update.
   */
  private Optional<Location> locate(RecordLocation at, FileSystemView view, Map<String, Map<String, FileGroup>> groups) {
    Map<String, FileGroup> inPartition = groups.computeIfAbsent(at.partition(), p -> {
      Map<String, FileGroup> m = new HashMap<>();
      view.fileGroups(p).forEach(g -> m.put(g.id().fileId(), g));
      return m;
    });
    FileGroup g = inPartition.get(at.fileId());
    if (g == null) {
      return Optional.empty();
    }
    Optional<String> base = g.latestBaseFile().map(b -> b.instantTime());
    if (base.isEmpty() && table.config().type() == TableType.MERGE_ON_READ) {
      base = g.latestSlice().map(s -> s.baseInstant());
    }
    return base.map(instant -> new Location(at.partition(), at.fileId(), instant));
  }

  /** Finds the record index for {@code timeline} (once per timeline), or why it cannot be used. */
  private Resolved resolve(Timeline timeline) {
    if (resolved != null && resolvedFor == timeline) {
      return resolved;
    }
    Resolved r = check(timeline);
    if (r.reader().isEmpty() && (resolved == null || !resolved.reason().equals(r.reason()))) {
      LOG.log(System.Logger.Level.WARNING, "hoodie.index.type=RECORD_INDEX on " + table.basePath() + ": " + r.reason()
          + "; tagging with GLOBAL_SIMPLE instead");
    }
    resolvedFor = timeline;
    resolved = r;
    return r;
  }

  private Resolved check(Timeline timeline) {
    String ri = MetadataPartition.RECORD_INDEX.path();
    if (!table.metadataEnabled()) {
      return none("hoodie.metadata.enable=false for this writer (the record index is part of the metadata table)");
    }
    if (!table.config().metadataPartitions().contains(ri)) {
      return none("hoodie.table.metadata.partitions " + table.config().metadataPartitions() + " does not list " + ri
          + " (the table has no record index, or a writer without it dropped it)");
    }
    MetadataTables.Availability a = MetadataTables.check(storage, table.basePath(), timeline, table.config(), true);
    if (a.reader().isEmpty()) {
      return none("the metadata table cannot be used: " + a.reason());
    }
    int shards = a.reader().get().fileSlices(MetadataPartition.RECORD_INDEX).size();
    if (shards == 0) {
      return none("the metadata table's " + ri + " partition has no file group");
    }
    if (a.reader().get().recordIndexPartitioned()) {
      return none("the " + ri + " partition is Hudi 1.1's partitioned record index (file groups per data partition, "
          + "hoodie.metadata.record.level.index.enable), which tags keys only within their partition; a global lookup "
          + "needs the global record index");
    }
    Optional<String> misplaced = a.reader().get().misplacedKey(MetadataPartition.RECORD_INDEX, SHARD_SAMPLE);
    if (misplaced.isPresent()) {
      return none("the " + ri + " partition is not sharded by Hudi's key hash (" + misplaced.get() + "), so lookups "
          + "would miss keys; rebuild it with a writer that shards it (Hudi's Spark writer, Sluice)");
    }
    return new Resolved(a.reader(), shards, "record index with " + shards + " file groups");
  }

  private static Resolved none(String reason) {
    return new Resolved(Optional.empty(), 0, reason);
  }
}
