package dev.sluice.internal.mdt.read;

import dev.sluice.api.CloseableIterator;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.hfile.HFileCell;
import dev.sluice.internal.hfile.HFileReader;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.DeleteRecord;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.mdt.FileEntry;
import dev.sluice.internal.mdt.FilesRecord;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.mdt.MetadataRecords;
import dev.sluice.internal.mdt.RecordIndexFileGroups;
import dev.sluice.internal.mdt.RecordLocation;
import dev.sluice.internal.util.ParsedSchemas;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Reads a data table's metadata table ({@code .hoodie/metadata}) as Hudi's {@code HoodieBackedTableMetadata} does:
 * Hudi 0.15's for a version-6 table, Hudi 1.x's for versions 8 and 9 ({@link TrustRules}), whose metadata table is a
 * table of the same timeline layout (its timeline under {@code .hoodie/metadata/.hoodie/timeline}, one log file per
 * deltacommit, file slices by completion time). Per metadata partition it takes the latest file slice of each file
 * group as of the rules' cut (merged with the slice before a pending compaction), sorted by file id; per slice it
 * reads the trusted log blocks ({@link MetadataLogBlocks}, {@link ValidInstants}) and merges their records oldest to
 * newest, then merges the base HFile's record under them. {@code files} records merge with {@link FilesRecord#merge};
 * {@code record_index} entries: the newest wins, a delete removes the key.
 *
 * <p>Lookups sort the keys, route each to its file group with {@link MetadataPartition#fileGroupIndex} and, per
 * slice, seek each key in the base HFile's block index and in each HFile log block; only the asked keys are kept in
 * memory. A full read of a partition exists only for {@code files} (one record per data partition).
 *
 * <p>Opening loads the metadata table's timeline and the valid instants; slices are listed when first asked for.
 */
public final class MetadataTableReader {
  private static final String FIX = "Rebuild the metadata table: delete .hoodie/metadata and clear "
      + "hoodie.table.metadata.partitions (a Hudi writer with the metadata table on rebuilds it), or read with "
      + "hoodie.metadata.enable=false.";
  /**
   * Unsigned UTF-8 byte order, the order of HFile cells, without encoding: UTF-8 keeps code point order, and UTF-16
   * units differ from it only where a surrogate (a code point above U+FFFF) meets a unit from U+E000 up. (Encoding
   * both keys per comparison made sorting a batch and its results a tenth of a record-index lookup.)
   */
  static final Comparator<String> KEY_ORDER = MetadataTableReader::compareUtf8;
  private static final Object DELETED = new Object();

  private final Storage storage;
  private final String basePath;
  private final Timeline timeline;
  private final String latestInstant;
  private final Set<String> valid;
  private final TrustRules rules;
  private final FileSystemView view;
  private final AtomicLong baseFilesOpened = new AtomicLong();

  private MetadataTableReader(Storage storage, String basePath, Timeline timeline, String latestInstant,
      String sliceCut, Set<String> valid, TrustRules rules) {
    this.storage = storage;
    this.basePath = basePath;
    this.timeline = timeline;
    this.latestInstant = latestInstant;
    this.valid = valid;
    this.rules = rules;
    this.view = FileSystemView.ofMetadataTable(storage, basePath, timeline).asOf(sliceCut);
  }

  /**
   * Opens the metadata table of the data table at {@code dataBasePath}, whose active timeline is
   * {@code dataTimeline}; empty if it has no completed instant (nothing a reader can trust).
   */
  public static Optional<MetadataTableReader> open(Storage storage, String dataBasePath, Timeline dataTimeline) {
    return open(storage, dataBasePath, dataTimeline, loadTimeline(storage, dataBasePath, dataTimeline));
  }

  /**
   * The timeline of the metadata table of the data table at {@code dataBasePath}: a table of the data table's own
   * timeline layout (Hudi writes, upgrades and downgrades the two together).
   */
  static Timeline loadTimeline(Storage storage, String dataBasePath, Timeline dataTimeline) {
    return new TimelineStore(storage, TableLayout.metadataTableFolder(dataBasePath), dataTimeline.layout()).load();
  }

  /** Like {@link #open(Storage, String, Timeline)} with the metadata table's timeline already loaded. */
  static Optional<MetadataTableReader> open(Storage storage, String dataBasePath, Timeline dataTimeline,
      Timeline metadataTimeline) {
    Optional<Instant> latest = metadataTimeline.lastCompleted();
    TrustRules rules = TrustRules.of(dataTimeline);
    Optional<String> cut = rules.sliceCut(metadataTimeline);
    if (latest.isEmpty() || cut.isEmpty()) {
      return Optional.empty();
    }
    Set<String> valid = rules.validInstants(dataTimeline,
        new TimelineStore(storage, dataBasePath, dataTimeline.layout()).knowing(dataTimeline), metadataTimeline);
    return Optional.of(new MetadataTableReader(storage, TableLayout.metadataTableFolder(dataBasePath), metadataTimeline,
        latest.get().time(), cut.get(), valid, rules));
  }

  /** The metadata table's active timeline. */
  public Timeline timeline() {
    return timeline;
  }

  /** The metadata table's latest completed instant: log blocks after it are not read. */
  public String latestInstant() {
    return latestInstant;
  }

  /** The instants whose log blocks count ({@link ValidInstants}). */
  public Set<String> validInstants() {
    return valid;
  }

  /** The latest file slice of each file group of {@code partition}, sorted by file id (empty if it has none). */
  public List<FileSlice> fileSlices(MetadataPartition partition) {
    return view.latestMergedSlices(partition.path());
  }

  /** Storage list calls of the metadata table's partition folders so far (its timeline's listing not counted). */
  public long listCalls() {
    return view.listCalls();
  }

  /**
   * Base HFiles opened by lookups and reads so far (each lookup opens the base file of every file group its keys
   * route to once), for tests and benchmarks of the record index.
   */
  public long baseFilesOpened() {
    return baseFilesOpened.get();
  }

  /** The data table's partitions, relative paths sorted ({@code ""} for a non-partitioned table). */
  public List<String> partitions() {
    Optional<FilesRecord> list = Optional.ofNullable(filesRecords(List.of(FilesRecord.ALL_PARTITIONS))
        .get(FilesRecord.ALL_PARTITIONS));
    List<String> out = new ArrayList<>();
    for (String id : list.map(FilesRecord::live).orElse(List.of())) {
      out.add(FilesRecord.partitionPath(id));
    }
    out.sort(null);
    return List.copyOf(out);
  }

  /**
   * The partition list ({@link #partitions}) and the live files of each listed partition ({@link #files}).
   *
   * @param partitions relative paths, sorted
   * @param files by relative path, of the partitions that the table lists files for
   */
  public record AllFiles(List<String> partitions, Map<String, List<MetadataFile>> files) {
  }

  /** {@link #partitions} and every partition's {@link #files}, from one read of the whole files partition. */
  public AllFiles allFiles() {
    SortedMap<String, FilesRecord> all = allFilesRecords();
    FilesRecord list = all.get(FilesRecord.ALL_PARTITIONS);
    List<String> partitions = new ArrayList<>();
    Map<String, List<MetadataFile>> files = new TreeMap<>();
    for (String id : list == null ? List.<String>of() : list.live()) {
      String p = FilesRecord.partitionPath(id);
      partitions.add(p);
      FilesRecord r = all.get(FilesRecord.partitionId(p));
      if (r != null && r.type() == FilesRecord.FILE_LIST) {
        files.put(p, live(r));
      }
    }
    partitions.sort(null);
    return new AllFiles(List.copyOf(partitions), files);
  }

  /** The live files of {@code partition} (relative path), sorted by name; empty if the table lists none. */
  public List<MetadataFile> files(String partition) {
    return files(List.of(partition)).getOrDefault(partition, List.of());
  }

  /** The live files of each of {@code partitions} (relative paths) that the table lists, in one batched lookup. */
  public Map<String, List<MetadataFile>> files(Collection<String> partitions) {
    Map<String, String> byId = new LinkedHashMap<>();
    for (String p : partitions) {
      byId.put(FilesRecord.partitionId(p), p);
    }
    Map<String, List<MetadataFile>> out = new TreeMap<>();
    filesRecords(byId.keySet()).forEach((id, r) -> {
      if (byId.containsKey(id) && r.type() == FilesRecord.FILE_LIST) {
        out.put(byId.get(id), live(r));
      }
    });
    return out;
  }

  /** Every record of the {@code files} partition, merged, by key (the partition list and one record per partition). */
  public SortedMap<String, FilesRecord> allFilesRecords() {
    return read(MetadataPartition.FILES, Optional.empty(), FILES);
  }

  /** The merged {@code files} records of {@code keys} (partition ids or {@link FilesRecord#ALL_PARTITIONS}) present. */
  public SortedMap<String, FilesRecord> filesRecords(Collection<String> keys) {
    return read(MetadataPartition.FILES, Optional.of(sorted(keys)), FILES);
  }

  /**
   * Where the record index puts each of {@code keys} that it holds (keys it does not hold are absent). The index
   * must be global: a partitioned one (Hudi 1.1's {@code hoodie.metadata.record.level.index.enable}, see
   * {@link #recordIndexPartitioned}) is UNSUPPORTED here, as in Hudi 1.1.1, since a key's file group depends on
   * its data partition ({@link #recordLocations(String, Collection)}).
   */
  public SortedMap<String, RecordLocation> recordLocations(Collection<String> keys) {
    List<FileSlice> slices = fileSlices(MetadataPartition.RECORD_INDEX);
    if (isPartitioned(slices)) {
      throw Errors.unsupported("A lookup of record keys across all partitions in the partitioned record index of "
          + basePath, "The record index of this table is kept per data partition (file groups "
          + slices.get(0).fileId() + ", ...): look keys up with their partition, or read with a global record index.");
    }
    return read(slices, Optional.of(sorted(keys)), LOCATIONS);
  }

  /**
   * True if the record index has file groups per data partition ({@code record-index-<partition>-NNNN-0}, Hudi 1.1's
   * partitioned record index) rather than the global {@code record-index-NNNN-0}.
   */
  public boolean recordIndexPartitioned() {
    return isPartitioned(fileSlices(MetadataPartition.RECORD_INDEX));
  }

  /**
   * Where the partitioned record index puts each of {@code keys} of data partition {@code dataPartition} that it
   * holds: the keys hash among that partition's file groups only ({@code lookupIndexRecords} with a data partition).
   * For a global index this is {@link #recordLocations(Collection)} restricted to locations in the partition.
   */
  public SortedMap<String, RecordLocation> recordLocations(String dataPartition, Collection<String> keys) {
    List<FileSlice> slices = fileSlices(MetadataPartition.RECORD_INDEX);
    if (!isPartitioned(slices)) {
      SortedMap<String, RecordLocation> all = read(slices, Optional.of(sorted(keys)), LOCATIONS);
      all.values().removeIf(l -> !l.partition().equals(dataPartition));
      return all;
    }
    List<FileSlice> own = slices.stream().filter(s -> dataPartitionOf(s.fileId()).equals(dataPartition)).toList();
    return read(own, Optional.of(sorted(keys)), LOCATIONS);
  }

  /** {@code verifyRLIFile}: a partitioned record index's file ids have four dashes, the global one's three. */
  private static boolean isPartitioned(List<FileSlice> slices) {
    return !slices.isEmpty() && slices.get(0).fileId().chars().filter(c -> c == '-').count() == 4;
  }

  /**
   * The data partition of a partitioned record-index file group ({@code getDataTablePartitionNameFromFileGroupName}):
   * the third part from the end of the file id split at dashes, with Hudi's {@code %XX} escapes undone (the escaping
   * of file names turns {@code /}, {@code -} and {@code _} into escapes, so the part holds no dash).
   */
  static String dataPartitionOf(String fileId) {
    return RecordIndexFileGroups.dataPartitionOf(fileId);
  }

  /**
   * The first of the leading {@code sample} keys of each base HFile of {@code partition} that is stored in a file
   * group its hash does not pick ({@link MetadataPartition#fileGroupIndex}), described; empty if they all hash
   * home. Lookups route keys by hash, so a key stored elsewhere is never found: an index built so (Hudi 0.15's Java
   * client bulk-inserts a record index built over existing data into one file group) would turn updates into
   * duplicates. Reads only the first data block(s) of each base file.
   */
  public Optional<String> misplacedKey(MetadataPartition partition, int sample) {
    List<FileSlice> slices = fileSlices(partition);
    for (int g = 0; g < slices.size(); g++) {
      Optional<BaseFile> base = slices.get(g).baseFile();
      if (base.isEmpty()) {
        continue;
      }
      try (HFileReader hfile = HFileReader.open(storage, base.get().path(), base.get().size());
          CloseableIterator<HFileCell> cells = hfile.scan()) {
        for (int n = 0; n < sample && cells.hasNext(); n++) {
          String key = cells.next().keyString();
          int home = slices.size() == 1 ? 0 : MetadataPartition.fileGroupIndex(key, slices.size());
          if (home != g) {
            return Optional.of("key '" + key + "' is stored in " + base.get().fileName() + " (file group " + g + " of "
                + slices.size() + ") but hashes to file group " + home);
          }
        }
      }
    }
    return Optional.empty();
  }

  static List<MetadataFile> live(FilesRecord r) {
    List<MetadataFile> out = new ArrayList<>();
    for (Map.Entry<String, FileEntry> e : r.entries().entrySet()) {
      if (!e.getValue().deleted()) {
        out.add(new MetadataFile(e.getKey(), e.getValue().size()));
      }
    }
    return List.copyOf(out);
  }

  static int compareUtf8(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        boolean xs = Character.isSurrogate(x);
        boolean ys = Character.isSurrogate(y);
        if (xs != ys && (xs ? y >= '\uE000' : x >= '\uE000')) {
          // a surrogate encodes a code point above every BMP unit
          return xs ? 1 : -1;
        }
        return x - y;
      }
    }
    return a.length() - b.length();
  }

  private static List<String> sorted(Collection<String> keys) {
    TreeSet<String> s = new TreeSet<>(KEY_ORDER);
    s.addAll(keys);
    return List.copyOf(s);
  }

  /** How the values of one metadata partition are decoded and merged (older, then newer). */
  private interface Combiner<T> {
    T decode(GenericRecord r, String where);

    T merge(T older, T newer);
  }

  private static final Combiner<FilesRecord> FILES = new Combiner<>() {
    @Override
    public FilesRecord decode(GenericRecord r, String where) {
      return MetadataRecords.files(r, where);
    }

    @Override
    public FilesRecord merge(FilesRecord older, FilesRecord newer) {
      return older.merge(newer);
    }
  };

  private static final Combiner<RecordLocation> LOCATIONS = new Combiner<>() {
    @Override
    public RecordLocation decode(GenericRecord r, String where) {
      return MetadataRecords.location(r, where);
    }

    @Override
    public RecordLocation merge(RecordLocation older, RecordLocation newer) {
      return newer;
    }
  };

  /**
   * The merged values of {@code keys} (sorted in HFile order; all keys if empty) in {@code partition}: keys routed to
   * their file group's slice, each slice's trusted log records merged oldest first, then merged over the base's.
   */
  private <T> SortedMap<String, T> read(MetadataPartition partition, Optional<List<String>> keys, Combiner<T> combiner) {
    return read(fileSlices(partition), keys, combiner);
  }

  /** As {@link #read(MetadataPartition, Optional, Combiner)} over the file groups {@code slices}, sorted by file id. */
  private <T> SortedMap<String, T> read(List<FileSlice> slices, Optional<List<String>> keys, Combiner<T> combiner) {
    SortedMap<String, T> out = new TreeMap<>(KEY_ORDER);
    if (slices.isEmpty() || keys.map(List::isEmpty).orElse(false)) {
      return out;
    }
    Map<Integer, List<String>> byGroup = new TreeMap<>();
    if (keys.isPresent()) {
      for (String k : keys.get()) {
        byGroup.computeIfAbsent(slices.size() == 1 ? 0 : MetadataPartition.fileGroupIndex(k, slices.size()),
            i -> new ArrayList<>()).add(k);
      }
    } else {
      for (int i = 0; i < slices.size(); i++) {
        byGroup.put(i, null);
      }
    }
    for (Map.Entry<Integer, List<String>> e : byGroup.entrySet()) {
      readSlice(slices.get(e.getKey()), Optional.ofNullable(e.getValue()), combiner, out);
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private <T> void readSlice(FileSlice slice, Optional<List<String>> keys, Combiner<T> combiner, Map<String, T> out) {
    Set<String> wanted = keys.map(HashSet::new).orElse(null);
    // encoded once for every log block and the base file of the slice
    Optional<List<byte[]>> encoded = keys.map(ks -> ks.stream().map(k -> k.getBytes(StandardCharsets.UTF_8)).toList());
    Map<String, Object> logs = new HashMap<>();
    for (LogBlock block : MetadataLogBlocks.trusted(storage, slice.logFiles(), timeline, latestInstant, valid, rules)) {
      if (block instanceof DataBlock data) {
        String where = block.span().map(s -> "log block at offset " + s.offset()).orElse("a log block") + " of "
            + slice.logFiles();
        try (CloseableIterator<GenericRecord> it = keys.isPresent()
            ? data.lookup(encoded.get(), MetadataRecords.storedSchema()) : data.records(MetadataRecords.storedSchema())) {
          while (it.hasNext()) {
            GenericRecord r = it.next();
            String key = r.get(MetadataRecords.KEY).toString();
            T value = combiner.decode(r, where);
            Object old = logs.get(key);
            logs.put(key, old == null || old == DELETED ? value : combiner.merge((T) old, value));
          }
        }
      } else if (block instanceof DeleteBlock deletes) {
        try (CloseableIterator<DeleteRecord> it = deletes.records()) {
          while (it.hasNext()) {
            String key = it.next().recordKey();
            if (key != null && (wanted == null || wanted.contains(key))) {
              logs.put(key, DELETED);
            }
          }
        }
      }
    }
    Map<String, T> base = new HashMap<>();
    slice.baseFile().ifPresent(f -> readBase(f, encoded, combiner, base));
    Set<String> all = new HashSet<>(base.keySet());
    all.addAll(logs.keySet());
    for (String key : all) {
      Object log = logs.get(key);
      T b = base.get(key);
      if (log == DELETED) {
        continue;
      }
      T merged = log == null ? b : b == null ? (T) log : combiner.merge(b, (T) log);
      out.put(key, merged);
    }
  }

  /** Reads {@code keys} (or every cell) of a base HFile with block-index seeks. */
  private <T> void readBase(BaseFile file, Optional<List<byte[]>> keys, Combiner<T> combiner, Map<String, T> out) {
    baseFilesOpened.incrementAndGet();
    try (HFileReader hfile = HFileReader.open(storage, file.path(), file.size())) {
      byte[] schemaText = hfile.fileInfo("schema").orElseThrow(() -> Errors.badTable(file.path(),
          "the metadata table's base file has no 'schema' file info entry", FIX));
      Schema writer;
      try {
        writer = ParsedSchemas.parse(new String(schemaText, StandardCharsets.UTF_8));
      } catch (RuntimeException e) {
        throw Errors.badTable(file.path(), "the 'schema' file info entry is not an Avro schema: " + e.getMessage(), FIX, e);
      }
      GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(writer, MetadataRecords.storedSchema());
      BinaryDecoder decoder = null;
      if (keys.isPresent()) {
        // the keys come sorted: one forward pass over the blocks they fall in
        try (CloseableIterator<HFileCell> cells = hfile.getAll(keys.get().iterator())) {
          while (cells.hasNext()) {
            HFileCell c = cells.next();
            String k = c.keyString();
            decoder = DecoderFactory.get().binaryDecoder(c.value(), decoder);
            out.put(k, combiner.decode(decode(reader, decoder, k, file), file.path()));
          }
        }
      } else {
        try (CloseableIterator<HFileCell> cells = hfile.scan()) {
          while (cells.hasNext()) {
            HFileCell c = cells.next();
            decoder = DecoderFactory.get().binaryDecoder(c.value(), decoder);
            out.put(c.keyString(), combiner.decode(decode(reader, decoder, c.keyString(), file), file.path()));
          }
        }
      }
    }
  }

  /** One record; the key field is stored empty and comes back from the row. */
  private static GenericRecord decode(GenericDatumReader<GenericRecord> reader, BinaryDecoder decoder, String key,
      BaseFile file) {
    try {
      GenericRecord r = reader.read(null, decoder);
      Object k = r.get(MetadataRecords.KEY);
      if (k == null || k.toString().isEmpty()) {
        r.put(MetadataRecords.KEY, key);
      }
      return r;
    } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException | ClassCastException e) {
      throw Errors.badTable(file.path(), "the metadata record '" + key + "' does not decode: " + e.getMessage(), FIX, e);
    }
  }
}
