package dev.sluice.api;

import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.index.Index;
import dev.sluice.internal.index.Location;
import dev.sluice.internal.index.TaggedRecord;
import dev.sluice.internal.merge.Ordering;
import dev.sluice.internal.merge.WriteRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * Point lookups by record key on the table as it was when the lookup was made ({@link #of}): the table's index
 * finds the file group holding the key (key ranges and bloom filters rule out the other files, then the key column
 * of the candidates is checked), and the row is read from that group's latest base file: its key column gives the
 * row's position, and only the pages holding that row are read from the other columns
 * ({@link BaseFileReader#rowWithKey}). Not thread-safe.
 *
 * <p>Rows come back as stored, meta columns first. Only base files are read: a key whose file group has log
 * files (Merge-on-Read, not yet compacted) is refused rather than answered from a stale base file.
 */
public final class Lookup {
  private final Table table;
  private final FileSystemView view;
  private final Index index;
  /** Footers of the base files read so far (files never change; readers hold no open streams). */
  private final Map<String, BaseFileReader> readers = new HashMap<>();
  private long indexFilesOpened;
  private long dataFilesOpened;

  private Lookup(Table table, FileSystemView view, Index index) {
    this.table = table;
    this.view = view;
    this.index = index;
  }

  /** Lookups on the latest snapshot of {@code table}, with its index ({@code hoodie.index.type}). */
  public static Lookup of(Table table) {
    return new Lookup(table, table.fileSystemView(), TableSettings.index(table));
  }

  /**
   * The row with {@code recordKey} in partition {@code partitionPath} (relative path, {@code ""} for a
   * non-partitioned table; ignored by a global index), if the table holds it.
   */
  public Optional<GenericRecord> get(String recordKey, String partitionPath) {
    WriteRecord probe = new WriteRecord(recordKey, partitionPath, null, Ordering.NATURAL, WriteRecord.DeleteKind.NONE);
    List<TaggedRecord> tagged = index.tag(List.of(probe), view);
    indexFilesOpened += index.filesOpened();
    Optional<Location> where = tagged.isEmpty() ? Optional.empty() : tagged.get(0).location();
    if (where.isEmpty()) {
      return Optional.empty();
    }
    Location loc = where.get();
    FileSlice slice = view.latestMergedSlices(loc.partitionPath()).stream()
        .filter(s -> s.fileId().equals(loc.fileId())).findFirst()
        .orElseThrow(() -> Errors.internal("the index located key " + recordKey + " in file group "
            + loc.fileId() + ", which the view of " + table.location() + " does not have", null));
    if (!slice.logFiles().isEmpty()) {
      throw Errors.unsupported("Key lookups in file groups with log files (file group " + loc.fileId() + ")",
          "Compact the table first, or use a snapshot scan with a filter on the record key.");
    }
    BaseFile base = slice.baseFile().orElseThrow(() -> Errors.internal("file group " + loc.fileId()
        + " has no base file", null));
    dataFilesOpened++;
    BaseFileReader reader = readers.computeIfAbsent(base.path(),
        p -> BaseFileReader.open(table.storage(), p, base.size()));
    return reader.rowWithKey(recordKey, reader.footer().schema());
  }

  /** Base files the index opened over all lookups so far (footers and key columns). */
  public long indexFilesOpened() {
    return indexFilesOpened;
  }

  /** Base files read for rows over all lookups so far. */
  public long dataFilesOpened() {
    return dataFilesOpened;
  }
}
