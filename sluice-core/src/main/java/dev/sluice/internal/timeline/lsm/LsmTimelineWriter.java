package dev.sluice.internal.timeline.lsm;

import dev.sluice.internal.basefile.BaseFileWriter;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.bloom.BloomFilterType;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Writes the LSM archived timeline as Hudi 1.x's {@code LSMTimelineWriter} does. One archival appends one layer-0
 * file ({@link #write}); then {@link #compactAndClean} merges the oldest files of any layer holding
 * {@code compactionBatchSize} files into one file of the next layer, and deletes manifests and data files no recent
 * snapshot needs.
 *
 * <p>Every change is published by a new snapshot: the data file first, then {@code manifest_<N+1>} (the previous
 * list changed, created exclusively), then {@code _version_} replaced (delete, create). A crash at any point leaves
 * the previous snapshot or the new one readable: a data file no manifest lists is never read, a manifest newer than
 * {@code _version_} is ignored until the next writer overwrites it, and a missing {@code _version_} makes readers
 * take the greatest manifest, which is then complete. The caller holds the table's lock: two writers would both
 * write the same next manifest.
 */
public final class LsmTimelineWriter {
  /** The layer archival writes to. */
  public static final int LAYER_ZERO = 0;
  /** Hudi's bound on the bytes merged at once ({@code LSMTimelineWriter.MAX_FILE_SIZE_IN_BYTES}, 1000 MiB). */
  static final long MAX_MERGE_BYTES = 1024L * 1024 * 1000;
  /** Snapshots kept by cleaning besides one per layer compacted in the same run ({@code LSMTimelineWriter.clean}). */
  static final int VERSIONS_KEPT = 3;

  private final Storage storage;
  private final LsmTimeline timeline;
  private final LsmSettings settings;
  private final BaseFileWriterOptions options;

  private LsmTimelineWriter(Storage storage, LsmTimeline timeline, LsmSettings settings) {
    this.storage = storage;
    this.timeline = timeline;
    this.settings = settings;
    // Hudi's parquet defaults for these files (120 MB row groups, 1 MB pages, dictionary on); no bloom filter is
    // written, the filter options only satisfy the record
    this.options = new BaseFileWriterOptions(settings.codec(), 120L * 1024 * 1024, 1024 * 1024, true,
        BloomFilterType.SIMPLE, 1, 0.5, 1);
  }

  /** A writer of the archived timeline {@code timeline}. */
  public static LsmTimelineWriter of(Storage storage, LsmTimeline timeline, LsmSettings settings) {
    return new LsmTimelineWriter(storage, timeline, settings);
  }

  /** The archived timeline written. */
  public LsmTimeline timeline() {
    return timeline;
  }

  /**
   * Publishes {@code instants} (one archival's batch, any order) as the layer-0 file
   * {@code <first requested>_<last requested>_0.parquet} and a new snapshot listing it; returns the file name.
   * If that file is already listed by the latest snapshot (an archival that published it and crashed before it
   * deleted the active files), nothing is written; if it exists unlisted (a crash while it was written), it is
   * replaced.
   */
  public String write(List<LsmInstant> instants) {
    if (instants.isEmpty()) {
      throw Errors.internal("an archival batch of no instants", null);
    }
    List<LsmInstant> sorted = new ArrayList<>(instants);
    sorted.sort(Comparator.comparing(LsmInstant::instantTime));
    String name = fileName(sorted.get(0).instantTime(), sorted.get(sorted.size() - 1).instantTime(), LAYER_ZERO);
    mkdirs();
    if (exists(name)) {
      if (timeline.latestManifest().contains(name)) {
        return name;
      }
      delete(timeline.path(name));
    }
    writeFile(name, sorted);
    KillPoints.reach("lsm.layer0.written");
    publish(List.of(), name);
    return name;
  }

  /**
   * Merges full layers, layer 0 first and each next layer while the one before produced a file, then cleans; returns
   * the files written by merging, lowest layer first. A layer is full when it has at least
   * {@code compactionBatchSize} files; its oldest ones by name (at most that many, adding files while the running
   * total is at most 1000 MiB) are merged, unless that leaves fewer than two.
   */
  public List<String> compactAndClean() {
    List<LsmManifest.Entry> files = new ArrayList<>(timeline.latestManifest().files());
    List<String> written = new ArrayList<>();
    int layer = LAYER_ZERO;
    Optional<LsmManifest.Entry> merged = compact(files, layer);
    while (merged.isPresent()) {
      written.add(merged.get().fileName());
      files.add(merged.get());
      layer++;
      merged = compact(files, layer);
    }
    clean(layer);
    return written;
  }

  private Optional<LsmManifest.Entry> compact(List<LsmManifest.Entry> files, int layer) {
    List<LsmManifest.Entry> inLayer = new ArrayList<>();
    for (LsmManifest.Entry e : files) {
      // Hudi counts a name it cannot parse as layer 0
      if (LsmTimeline.dataFile(e.fileName()).map(LsmTimeline.DataFile::layer).orElse(LAYER_ZERO) == layer) {
        inLayer.add(e);
      }
    }
    int batch = settings.compactionBatchSize();
    if (inLayer.size() < batch) {
      return Optional.empty();
    }
    inLayer.sort(Comparator.comparing(LsmManifest.Entry::fileName));
    List<LsmTimeline.DataFile> sources = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < batch && total <= MAX_MERGE_BYTES; i++) {
      LsmManifest.Entry e = inLayer.get(i);
      total += e.fileLen();
      sources.add(LsmTimeline.dataFile(e.fileName()).orElseThrow(() -> Errors.badTable(timeline.path(e.fileName()),
          "is listed by the archived timeline's manifest but is not named <min>_<max>_<layer>.parquet",
          "Restore the manifest; Hudi 1.x cannot merge this file either.")));
    }
    if (sources.size() < 2) {
      // one file over the size bound: merging it alone would only copy it
      return Optional.empty();
    }
    String min = sources.stream().map(LsmTimeline.DataFile::minInstant).min(Comparator.naturalOrder()).orElseThrow();
    String max = sources.stream().map(LsmTimeline.DataFile::maxInstant).max(Comparator.naturalOrder()).orElseThrow();
    String name = fileName(min, max, sources.get(0).layer() + 1);
    if (exists(name)) {
      // left by a merge that crashed before its snapshot was published
      delete(timeline.path(name));
    }
    List<LsmInstant> rows = new ArrayList<>();
    for (LsmTimeline.DataFile f : sources) {
      rows.addAll(timeline.read(f.name()));
    }
    writeFile(name, rows);
    KillPoints.reach("lsm.merged.written");
    LsmManifest.Entry entry = publish(sources.stream().map(LsmTimeline.DataFile::name).toList(), name);
    return Optional.of(entry);
  }

  /**
   * With more than {@code 3 + compactedLayers} snapshots, keeps the newest that many and deletes the other
   * manifests, then every data file none of the kept manifests lists.
   */
  void clean(int compactedLayers) {
    List<Integer> versions = new ArrayList<>(timeline.versions());
    int keep = VERSIONS_KEPT + compactedLayers;
    if (versions.size() <= keep) {
      return;
    }
    versions.sort(Comparator.reverseOrder());
    List<Integer> kept = versions.subList(0, keep);
    Set<String> needed = new HashSet<>();
    for (int v : kept) {
      needed.addAll(timeline.manifest(v).fileNames());
    }
    for (FileInfo f : timeline.list()) {
      Optional<Integer> v = LsmTimeline.manifestVersion(f.name());
      if (v.isPresent() && !kept.contains(v.get())) {
        KillPoints.reach("lsm.clean.manifest");
        delete(f.path());
      }
    }
    for (FileInfo f : timeline.list()) {
      if (f.name().endsWith(".parquet") && !needed.contains(f.name())) {
        KillPoints.reach("lsm.clean.file");
        delete(f.path());
      }
    }
  }

  /** Writes {@code manifest_<latest+1>} = the latest list without {@code removed} plus {@code added}, then the version. */
  private LsmManifest.Entry publish(Collection<String> removed, String added) {
    Optional<Integer> latest = timeline.latestVersion();
    LsmManifest current = latest.map(timeline::manifest).orElse(LsmManifest.EMPTY);
    LsmManifest.Entry entry = new LsmManifest.Entry(added, length(added));
    int next = latest.map(v -> v + 1).orElse(1);
    String manifest = timeline.manifestPath(next);
    // a manifest of this number exists only if a writer crashed before it replaced _version_: not a snapshot
    delete(manifest);
    KillPoints.reach("lsm.manifest.before");
    create(manifest, current.replacing(removed, entry).toJson());
    KillPoints.reach("lsm.manifest.after");
    String version = timeline.versionPath();
    delete(version);
    // between the two, readers take the greatest manifest: the one just written
    KillPoints.reach("lsm.version.deleted");
    create(version, Integer.toString(next).getBytes(StandardCharsets.UTF_8));
    KillPoints.reach("lsm.version.after");
    return entry;
  }

  private void writeFile(String name, List<LsmInstant> rows) {
    String path = timeline.path(name);
    try (BaseFileWriter w = BaseFileWriter.openPlain(storage, path, LsmInstant.SCHEMA, "instantTime", options)) {
      for (LsmInstant i : rows) {
        w.write(i.toRecord());
      }
      w.finish();
    }
  }

  /** {@code <min>_<max>_<layer>.parquet}. */
  static String fileName(String minInstant, String maxInstant, int layer) {
    if (layer > 9) {
      // the name pattern has one digit for the layer; Hudi would write a name its readers skip
      throw Errors.internal("the archived timeline would need layer " + layer, null);
    }
    return minInstant + "_" + maxInstant + "_" + layer + ".parquet";
  }

  private void mkdirs() {
    try {
      storage.mkdirs(timeline.folder());
    } catch (IOException e) {
      throw Errors.storage("create the archived timeline folder", timeline.folder(), e);
    }
  }

  private boolean exists(String name) {
    String path = timeline.path(name);
    try {
      return storage.info(path).isPresent();
    } catch (IOException e) {
      throw Errors.storage("check", path, e);
    }
  }

  private long length(String name) {
    String path = timeline.path(name);
    try {
      return storage.info(path).orElseThrow(() -> Errors.internal(path + " vanished after it was written", null))
          .length();
    } catch (IOException e) {
      throw Errors.storage("check", path, e);
    }
  }

  private void create(String path, byte[] content) {
    try {
      storage.createExclusive(path, content);
    } catch (IOException e) {
      throw Errors.storage("write the archived timeline file", path, e);
    }
  }

  private void delete(String path) {
    try {
      storage.delete(path);
    } catch (IOException e) {
      throw Errors.storage("delete the archived timeline file", path, e);
    }
  }
}
