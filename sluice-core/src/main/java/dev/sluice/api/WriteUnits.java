package dev.sluice.api;

import dev.sluice.internal.util.ParsedSchemas;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.write.FileGroupUnits;
import dev.sluice.internal.write.FileGroupWrite;
import dev.sluice.internal.write.WriteSetup;
import dev.sluice.internal.index.IndexedTable;
import dev.sluice.internal.index.Indexes;
import dev.sluice.internal.index.Location;
import dev.sluice.internal.index.TaggedRecord;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.mdt.RecordLocation;
import dev.sluice.internal.mdt.write.RecordIndexChanges;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * The units of work of a {@link DistributedWrite} that run in a cluster engine's tasks, each the engine's own
 * code for that step (the same a single-machine {@link Table#write} runs): prepare records, combine two versions of
 * a key, look keys up in one base file, write one file group. One instance per task (or per executor and
 * write); {@link #open} reads the table's {@code hoodie.properties}.
 */
public final class WriteUnits {
  private final WriteContext context;
  private final WriteSetup setup;
  private final Table table;
  /** The record-index lookup, opened on first use (it reads the table's and the metadata table's timelines). */
  private Function<List<String>, Map<String, RecordLocation>> recordIndex;

  private WriteUnits(WriteContext context, WriteSetup setup, Table table) {
    this.context = context;
    this.setup = setup;
    this.table = table;
  }

  /** The units of the write {@code context} describes, on the table it names. */
  public static WriteUnits open(WriteContext context) {
    Table table = Tables.open(context.basePath(), Config.of(context.options()));
    Schema schema = ParsedSchemas.parse(context.schema());
    return new WriteUnits(context, TableSettings.writeSetup(table.storage(), table.location(), table.config(), schema,
        table.changes()), table);
  }

  /** The write these units belong to. */
  public WriteContext context() {
    return context;
  }

  /**
   * {@code records} (in the writer schema; for a delete, full records or key-only rows of {@link Table#keySchema})
   * validated, keyed and, if the operation combines duplicates, combined among themselves.
   */
  public List<WireRecord> prepare(Iterator<GenericRecord> records) {
    List<WireRecord> out = new ArrayList<>();
    for (WriteRecord r : FileGroupUnits.prepare(setup, records, context.operation())) {
      out.add(wire(r));
    }
    return out;
  }

  /**
   * As {@link #prepare}, one record at a time as the caller pulls it, without combining duplicates: memory stays one
   * record whatever the input's size. A distributed write prepares each input partition this way and combines
   * across the whole batch afterwards (by {@link WireRecord#combineKey} and {@link #combine}, if
   * {@link #combines()}), which gives the records {@link #prepare} and that combining give.
   */
  public Iterator<WireRecord> prepareEach(Iterator<GenericRecord> records) {
    return CloseableIterator.of(FileGroupUnits.prepareEach(setup, records, context.operation())).map(this::wire);
  }

  /** True if the write combines duplicate keys of its batch (by {@link WireRecord#combineKey}). */
  public boolean combines() {
    return FileGroupUnits.combines(setup, context.operation());
  }

  /**
   * Of two versions of one key, the one the batch keeps (the engine's rule: the larger ordering value wins, a tie
   * goes to {@code newer}). A cluster's reduce may not know which came first; the result is then order-dependent on
   * ties, as in Hudi.
   */
  public WireRecord combine(WireRecord older, WireRecord newer) {
    WriteRecord o = record(older);
    return FileGroupUnits.combine(setup, o, record(newer)) == o ? older : newer;
  }

  /**
   * Which of {@code keys} base file {@code file} holds: keys outside its key range (when {@link FileRef} knows it)
   * are ruled out unopened, then its bloom filter, then its key column decides.
   */
  public List<String> keysInFile(FileRef file, Collection<String> keys) {
    List<String> inRange = new ArrayList<>(keys.size());
    for (String k : keys) {
      if (file.mayHold(k)) {
        inRange.add(k);
      }
    }
    if (inRange.isEmpty()) {
      return List.of();
    }
    return FileGroupUnits.keysInFile(setup.storage(), file.path(), file.size(), inRange);
  }

  /**
   * The records {@code record} becomes once a global index found its key in {@code file} (the engine's rule, as its
   * own global tagging applies it): each with true if it goes to {@code file}'s group (an update or a delete there),
   * false if it is an insert into its own partition. A key found in its record's partition is an update there; in
   * another partition, with {@code hoodie.*.index.update.partition.path} it is deleted there and inserted in the
   * record's (a delete stays a delete there), else it updates the key where it is.
   */
  public List<Map.Entry<WireRecord, Boolean>> tagFound(WireRecord record, FileRef file) {
    WriteRecord r = record(record);
    List<Map.Entry<WireRecord, Boolean>> out = new ArrayList<>(2);
    for (TaggedRecord t : Indexes.tagFound(r, new Location(file.partitionPath(), file.fileId(), file.instantTime()),
        setup.settings().index().updatePartitionPath())) {
      WireRecord w = t.record() == r ? record : wire(t.record());
      out.add(Map.entry(w, t.location().isPresent()));
    }
    return out;
  }

  /**
   * True if a global lookup that found one key in the base files of both {@code candidate} and {@code current}
   * should take {@code candidate}: the engine's rule for which copy is live (a key that moved partition on
   * Merge-on-Read stays in its old base file until compaction, deleted by a log block; the newer base file holds it).
   */
  public static boolean holdsTheLiveCopy(FileRef candidate, FileRef current) {
    Location c = new Location(candidate.partitionPath(), candidate.fileId(), candidate.instantTime());
    return Indexes.liveCopy(new Location(current.partitionPath(), current.fileId(), current.instantTime()), c) == c;
  }

  /** The shard (file group index) of the record index with {@code shards} file groups that holds {@code key}. */
  public static int recordIndexShard(String key, int shards) {
    return MetadataPartition.fileGroupIndex(key, shards);
  }

  /**
   * Where the table's record index puts those of {@code keys} it holds (best the keys of one shard: each shard's
   * files are opened once per call), as of the table's timeline now (the write's own instant is not complete).
   */
  public List<KeyLocation> recordLocations(List<String> keys) {
    Function<List<String>, Map<String, RecordLocation>> lookup;
    synchronized (this) {
      if (recordIndex == null) {
        recordIndex = Indexes.recordIndexLookup(setup.storage(),
            new IndexedTable(setup.basePath(), setup.tableConfig(), setup.commit().metadataEnabled()),
            setup.settings().index(), table.timeline());
      }
      lookup = recordIndex;
    }
    List<KeyLocation> out = new ArrayList<>();
    lookup.apply(keys).forEach((k, l) -> out.add(new KeyLocation(k, l.partition(), l.fileId())));
    return out;
  }

  /**
   * Writes {@code task}'s file group as task attempt {@code token}: {@code updates} (its tagged records) and
   * {@code inserts} (its inserts, in key order), each read once; every file behind a marker of the write's instant.
   */
  public List<FileWriteWire> write(FileGroupTask task, Iterator<WireRecord> updates, Iterator<WireRecord> inserts,
      WriteToken token) {
    List<FileWriteWire> out = new ArrayList<>();
    if (!FileGroupUnits.hasRecordIndex(setup)) {
      for (FileWriteResult r : FileGroupUnits.write(setup, context.instantTime(), fileGroupWrite(task),
          records(updates), records(inserts), token)) {
        out.add(FileWriteWire.of(r));
      }
      return out;
    }
    // the handles tell the record index's changes of this file group as they write; they go back with its files
    try (RecordIndexChanges changes = FileGroupUnits.recordIndexChanges(setup)) {
      List<FileWriteResult> files = FileGroupUnits.write(setup, context.instantTime(), fileGroupWrite(task),
          records(updates), records(inserts), token, changes);
      Map<String, List<String>> indexed = new HashMap<>();
      List<String> unindexed = new ArrayList<>();
      changes.forEachChange(c -> {
        if (c.isDelete()) {
          unindexed.add(c.key());
        } else {
          indexed.computeIfAbsent(c.fileId(), f -> new ArrayList<>()).add(c.key());
        }
      });
      for (FileWriteResult r : files) {
        // a file group's deletes ride on its first file
        out.add(FileWriteWire.of(r).withRecordIndex(indexed.getOrDefault(r.fileId(), List.of()),
            out.isEmpty() ? unindexed : List.of()));
      }
      return out;
    }
  }

  private WireRecord wire(WriteRecord r) {
    return new WireRecord(r.key(), r.partitionPath(), r.isDelete(), FileGroupUnits.encode(setup, r));
  }

  private WriteRecord record(WireRecord w) {
    return FileGroupUnits.decode(setup, w.bytes());
  }

  private Iterator<WriteRecord> records(Iterator<WireRecord> wires) {
    return CloseableIterator.of(wires).map(this::record);
  }

  /** The engine's plan entry for {@code task}. */
  static FileGroupWrite fileGroupWrite(FileGroupTask task) {
    FileGroupId id = new FileGroupId(task.partitionPath(), task.fileId());
    Optional<BaseFile> base = Optional.ofNullable(task.baseFile())
        .map(f -> new BaseFile(f.path(), f.fileName(), f.fileId(), f.instantTime(), f.size()));
    return switch (task.kind()) {
      case MERGE -> new FileGroupWrite.Merge(id, base.orElseThrow(), task.updates(), task.inserts());
      case CREATE -> new FileGroupWrite.Create(id, task.inserts());
      case APPEND -> {
        List<LogFile> logs = new ArrayList<>();
        for (LogFileRef l : task.logFiles()) {
          logs.add(new LogFile(l.path(), l.fileName(), task.fileId(), l.baseInstant(), l.version(), l.writeToken(),
              l.size()));
        }
        yield new FileGroupWrite.Append(id, new FileSlice(id, task.sliceBaseInstant(), base, logs), task.updates());
      }
    };
  }
}
