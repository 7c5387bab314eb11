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
import java.util.ArrayList;
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

  private WriteUnits(WriteContext context, WriteSetup setup) {
    this.context = context;
    this.setup = setup;
  }

  /** The units of the write {@code context} describes, on the table it names. */
  public static WriteUnits open(WriteContext context) {
    Table table = Tables.open(context.basePath(), Config.of(context.options()));
    Schema schema = ParsedSchemas.parse(context.schema());
    return new WriteUnits(context, TableSettings.writeSetup(table.storage(), table.location(), table.config(), schema,
        table.changes()));
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

  /** Which of {@code keys} base file {@code file} holds (bloom filter, then the key column). */
  public List<String> keysInFile(FileRef file, Collection<String> keys) {
    return FileGroupUnits.keysInFile(setup.storage(), file.path(), file.size(), keys);
  }

  /**
   * Writes {@code task}'s file group as task attempt {@code token}: {@code updates} (its tagged records) and
   * {@code inserts} (its inserts, in key order), each read once; every file behind a marker of the write's instant.
   */
  public List<FileWriteWire> write(FileGroupTask task, Iterator<WireRecord> updates, Iterator<WireRecord> inserts,
      WriteToken token) {
    List<FileWriteWire> out = new ArrayList<>();
    for (FileWriteResult r : FileGroupUnits.write(setup, context.instantTime(), fileGroupWrite(task),
        records(updates), records(inserts), token)) {
      out.add(FileWriteWire.of(r));
    }
    return out;
  }

  private WireRecord wire(WriteRecord r) {
    return new WireRecord(r.key(), r.partitionPath(), r.isDelete(), FileGroupUnits.encode(setup, r));
  }

  private WriteRecord record(WireRecord w) {
    return FileGroupUnits.decode(setup, w.bytes());
  }

  private Iterator<WriteRecord> records(Iterator<WireRecord> wires) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return wires.hasNext();
      }

      @Override
      public WriteRecord next() {
        return record(wires.next());
      }
    };
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
