package dev.sluice.internal.timeline.lsm;

import dev.sluice.api.CloseableIterator;
import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads the LSM archived timeline of a version-8/9 table ({@code LSMTimeline}, {@code ArchivedTimelineLoaderV2}):
 * the latest snapshot version from {@code _version_} (or, when that file is missing or unreadable, the greatest
 * {@code manifest_<N>}), the valid files from that manifest, and their rows. Files a manifest does not list (left by
 * a crashed archival or waiting to be cleaned) are never read. Every call reads storage afresh; nothing is cached.
 */
public final class LsmTimeline {
  /** The file naming the latest snapshot version. */
  public static final String VERSION_FILE = "_version_";
  /** Prefix of the manifest files, {@code manifest_<N>}. */
  public static final String MANIFEST_PREFIX = "manifest_";
  /** Manifests being written by some tool end with this and are not snapshots. */
  private static final String TEMP_SUFFIX = ".tmp";
  // LSMTimeline.ARCHIVE_FILE_PATTERN: the layer is one digit
  private static final Pattern DATA_FILE = Pattern.compile("^(\\d+)_(\\d+)_(\\d)\\.parquet");
  private static final Schema TIMES = project("instantTime", "completionTime", "action");

  private final Storage storage;
  private final String folder;

  private LsmTimeline(Storage storage, String folder) {
    this.storage = storage;
    this.folder = folder;
  }

  /** The archived timeline in {@code folder}. */
  public static LsmTimeline of(Storage storage, String folder) {
    return new LsmTimeline(storage, folder);
  }

  /**
   * The archived timeline of the layout-2 table at {@code basePath}: {@code .hoodie/<hoodie.timeline.path>/
   * <hoodie.timeline.history.path>} ({@code TimelinePathProviderV2}).
   */
  public static LsmTimeline of(Storage storage, String basePath, TableConfig config) {
    return new LsmTimeline(storage, folder(basePath, config));
  }

  /** The history folder of the layout-2 table at {@code basePath}. */
  public static String folder(String basePath, TableConfig config) {
    String timeline = config.properties().getOrDefault("hoodie.timeline.path", "");
    String history = config.properties().getOrDefault("hoodie.timeline.history.path", "");
    return StoragePaths.join(TableLayout.metaFolder(basePath), timeline.isBlank() ? "timeline" : timeline.trim(),
        history.isBlank() ? "history" : history.trim());
  }

  /** The history folder. */
  public String folder() {
    return folder;
  }

  /** The path of {@code manifest_<version>}. */
  String manifestPath(int version) {
    return StoragePaths.join(folder, MANIFEST_PREFIX + version);
  }

  /** The path of {@code _version_}. */
  String versionPath() {
    return StoragePaths.join(folder, VERSION_FILE);
  }

  /**
   * The latest snapshot version: the number in {@code _version_}, or, if that file is missing or does not hold a
   * number (a crash between its delete and its re-creation), the greatest manifest version; empty if there is none.
   */
  public Optional<Integer> latestVersion() {
    Optional<byte[]> content = readIfExists(versionPath());
    if (content.isPresent()) {
      try {
        return Optional.of(Integer.parseInt(new String(content.get(), StandardCharsets.UTF_8).trim()));
      } catch (NumberFormatException e) {
        // as Hudi: an unreadable version file falls back to the manifests' listing
        return versions().stream().max(Integer::compare);
      }
    }
    return versions().stream().max(Integer::compare);
  }

  /** Every snapshot version that has a manifest file, ascending. */
  public List<Integer> versions() {
    List<Integer> out = new ArrayList<>();
    for (FileInfo f : list()) {
      manifestVersion(f.name()).ifPresent(out::add);
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  /** The manifest of snapshot {@code version}; BAD_TABLE if it is missing. */
  public LsmManifest manifest(int version) {
    String path = manifestPath(version);
    byte[] content = readIfExists(path).orElseThrow(() -> Errors.badTable(path,
        "the manifest of the archived timeline's snapshot " + version + " does not exist",
        "Restore it, or correct " + VERSION_FILE + " to name an existing manifest."));
    return LsmManifest.parse(content, path);
  }

  /** The manifest of the latest snapshot; empty when there is none. */
  public LsmManifest latestManifest() {
    return latestVersion().map(this::manifest).orElse(LsmManifest.EMPTY);
  }

  /**
   * Every archived instant with its times and action (no metadata bytes), ascending by requested time. An instant
   * found in two files (an archival that crashed after its snapshot was published and archived it again) counts once.
   */
  public List<Archived> instants() {
    Map<String, Archived> out = new LinkedHashMap<>();
    for (String file : latestManifest().fileNames()) {
      for (GenericRecord r : rows(file, TIMES)) {
        LsmInstant i = LsmInstant.fromRecord(r, path(file));
        out.putIfAbsent(i.instantTime(), new Archived(i.instantTime(), i.completionTime(), i.action(), file));
      }
    }
    List<Archived> sorted = new ArrayList<>(out.values());
    sorted.sort(Comparator.comparing(Archived::instantTime));
    return sorted;
  }

  /** Requested time → completion time of every archived instant. */
  public Map<String, String> completionTimes() {
    Map<String, String> out = new LinkedHashMap<>();
    for (Archived a : instants()) {
      out.put(a.instantTime(), a.completionTime());
    }
    return out;
  }

  /** Every archived instant with its metadata and plan bytes, ascending by requested time, each once. */
  public List<LsmInstant> instantsWithDetails() {
    Map<String, LsmInstant> out = new LinkedHashMap<>();
    for (String file : latestManifest().fileNames()) {
      for (LsmInstant i : read(file)) {
        out.putIfAbsent(i.instantTime(), i);
      }
    }
    List<LsmInstant> sorted = new ArrayList<>(out.values());
    sorted.sort(Comparator.comparing(LsmInstant::instantTime));
    return sorted;
  }

  /** The metadata bytes of the archived instant {@code a} (read from its file now); empty if it had none. */
  public Optional<byte[]> metadata(Archived a) {
    for (GenericRecord r : rows(a.file(), project("instantTime", "metadata"))) {
      if (a.instantTime().equals(String.valueOf(r.get("instantTime")))) {
        return LsmInstant.bytes(r.get("metadata"));
      }
    }
    return Optional.empty();
  }

  /** Every row of the data file {@code fileName}, in file order. */
  public List<LsmInstant> read(String fileName) {
    List<LsmInstant> out = new ArrayList<>();
    for (GenericRecord r : rows(fileName, LsmInstant.SCHEMA)) {
      out.add(LsmInstant.fromRecord(r, path(fileName)));
    }
    return out;
  }

  private List<GenericRecord> rows(String fileName, Schema projection) {
    String path = path(fileName);
    List<GenericRecord> out = new ArrayList<>();
    try (BaseFileReader reader = BaseFileReader.open(storage, path);
        CloseableIterator<GenericRecord> it = reader.read(projection)) {
      while (it.hasNext()) {
        out.add(it.next());
      }
    }
    return out;
  }

  /** The path of a data file of this archive. */
  String path(String fileName) {
    return StoragePaths.join(folder, fileName);
  }

  /** The folder's files (none if it does not exist). */
  List<FileInfo> list() {
    try {
      if (storage.info(folder).isEmpty()) {
        return List.of();
      }
      return storage.list(folder).stream().filter(f -> !f.directory()).toList();
    } catch (IOException e) {
      throw Errors.storage("list the archived timeline folder", folder, e);
    }
  }

  private Optional<byte[]> readIfExists(String path) {
    try (InputStream in = storage.openRead(path)) {
      return Optional.of(in.readAllBytes());
    } catch (NoSuchFileException | FileNotFoundException e) {
      // absent is an answer: no snapshot yet, or a version file between its delete and re-creation
      return Optional.empty();
    } catch (IOException e) {
      throw Errors.storage("read", path, e);
    }
  }

  /** The version of a manifest file name; empty for other files (and {@code .tmp} manifests). */
  static Optional<Integer> manifestVersion(String name) {
    if (!name.startsWith(MANIFEST_PREFIX) || name.endsWith(TEMP_SUFFIX)) {
      return Optional.empty();
    }
    try {
      return Optional.of(Integer.parseInt(name.substring(MANIFEST_PREFIX.length())));
    } catch (NumberFormatException e) {
      // not a manifest Hudi wrote (Hudi would fail on it); not a snapshot
      return Optional.empty();
    }
  }

  /** The parts of a data file name {@code <min>_<max>_<layer>.parquet}; empty for other names. */
  public static Optional<DataFile> dataFile(String name) {
    Matcher m = DATA_FILE.matcher(name);
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(new DataFile(name, m.group(1), m.group(2), Integer.parseInt(m.group(3))));
  }

  /** A projection of the instant schema onto {@code names}. */
  private static Schema project(String... names) {
    List<Schema.Field> fields = new ArrayList<>();
    for (String n : names) {
      Schema.Field f = LsmInstant.SCHEMA.getField(n);
      fields.add(new Schema.Field(f.name(), f.schema(), f.doc(), f.defaultVal()));
    }
    return Schema.createRecord(LsmInstant.SCHEMA.getName(), null, LsmInstant.SCHEMA.getNamespace(), false, fields);
  }

  /**
   * A data file's name parts.
   *
   * @param name the file name
   * @param minInstant the requested time of its first instant
   * @param maxInstant the requested time of its last instant
   * @param layer 0 for files written by archival, n+1 for a merge of layer-n files
   */
  public record DataFile(String name, String minInstant, String maxInstant, int layer) {
  }

  /**
   * An archived instant without its bytes.
   *
   * @param instantTime the requested time
   * @param completionTime the completion time
   * @param action the completed action
   * @param file the data file holding its row
   */
  public record Archived(String instantTime, String completionTime, String action, String file) {
  }
}
