package dev.sluice.api;

import dev.sluice.internal.table.TableConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which {@code hoodie.*} and {@code sluice.*} option keys Sluice knows, so that a misspelt key is reported instead
 * of silently meaning nothing: a typo in {@code hoodie.write.concurrency.mode} would otherwise leave a writer in
 * single-writer mode. Known are every key of {@link ConfigKeys}, the table properties Sluice writes to
 * {@code hoodie.properties} (given to {@code create}), the storage settings Sluice itself reads, and the Hudi keys
 * Sluice knowingly ignores ({@link #ignoredHudiKeys}, each with the reason). Keys under other prefixes are storage
 * settings handed to the storage layer (Hadoop's {@code fs.*}, ...) and are not checked.
 *
 * <p>The CLI warns about every unknown key on stderr and refuses them with {@code --strict-config}; Java users call
 * {@link #unknown} or set {@link ConfigKeys#STRICT_CONFIG} so that {@link Tables#open} and {@link Tables#create}
 * refuse them.
 */
public final class KnownKeys {
  /** A Hudi key that Sluice accepts and ignores, and why. */
  public record Ignored(String key, String why) {
  }

  /**
   * An unknown key and the known key closest to it (fewest single-character edits).
   *
   * @param key the key as given
   * @param closest the closest known key
   * @param distance how many single-character edits turn {@code key} into {@code closest}
   */
  public record Unknown(String key, String closest, int distance) {
    /** {@code unknown option 'key'; did you mean 'closest'?} (or, when nothing is close, where keys are listed). */
    public String describe() {
      boolean close = distance <= Math.max(2, key.length() / 4);
      return "unknown option '" + key + "'" + (close ? "; did you mean '" + closest + "'?"
          : " (the closest known key is '" + closest + "'; every option is in docs/configuration.md)");
    }
  }

  private static final List<Ignored> IGNORED = List.of(
      new Ignored("hoodie.datasource.write.recordkey.field", "the record key is the table's "
          + "(hoodie.table.recordkey.fields, set by create --record-key)"),
      new Ignored("hoodie.datasource.write.partitionpath.field", "the partition fields are the table's "
          + "(hoodie.table.partition.fields, set by create --partition-path)"),
      new Ignored("hoodie.datasource.write.precombine.field", "the ordering field is the table's "
          + "(hoodie.table.precombine.field, set by create --precombine)"),
      new Ignored("hoodie.datasource.write.keygenerator.class", "the key generator is the table's "
          + "(hoodie.table.keygenerator.class)"),
      new Ignored("hoodie.datasource.write.table.type", "the table type is the table's (hoodie.table.type)"),
      new Ignored("hoodie.datasource.write.table.name", "the table name is the table's (hoodie.table.name)"),
      new Ignored("hoodie.datasource.write.operation", "the command (insert, upsert, ...) or the Table method chooses"),
      new Ignored("hoodie.base.path", "the table's location is given to the command or to Tables.open"),
      new Ignored("hoodie.upsert.shuffle.parallelism", "a Spark shuffle setting; Sluice's is sluice.write.parallelism"),
      new Ignored("hoodie.insert.shuffle.parallelism", "a Spark shuffle setting; Sluice's is sluice.write.parallelism"),
      new Ignored("hoodie.bulkinsert.shuffle.parallelism", "a Spark shuffle setting; Sluice's is "
          + "sluice.write.parallelism"),
      new Ignored("hoodie.delete.shuffle.parallelism", "a Spark shuffle setting; Sluice's is sluice.write.parallelism"),
      new Ignored("hoodie.embed.timeline.server", "Sluice runs no timeline server"),
      new Ignored("hoodie.write.markers.type", "Sluice always writes direct markers (one file per data file)"),
      new Ignored("hoodie.auto.commit", "every Sluice write commits when it ends"),
      new Ignored("hoodie.datasource.hive_sync.enable", "Spark's Hive sync switch; Sluice's is "
          + "hoodie.datasource.meta.sync.enable (with sluice-hive-sync on the class path)"));

  /** Table properties Sluice writes to or reads from {@code hoodie.properties}; {@code create} takes them. */
  private static final List<String> TABLE_PROPERTIES = List.of(TableConfig.NAME, TableConfig.TYPE, TableConfig.VERSION,
      TableConfig.TIMELINE_LAYOUT_VERSION, TableConfig.ARCHIVELOG_FOLDER, TableConfig.RECORDKEY_FIELDS,
      TableConfig.PRECOMBINE_FIELD, TableConfig.PARTITION_FIELDS, TableConfig.KEY_GENERATOR_CLASS,
      TableConfig.DROP_PARTITION_COLUMNS, TableConfig.PAYLOAD_CLASS, TableConfig.RECORD_MERGER_STRATEGY,
      TableConfig.BASE_FILE_FORMAT, TableConfig.LOG_FILE_FORMAT, TableConfig.POPULATE_META_FIELDS,
      TableConfig.HIVE_STYLE_PARTITIONING, TableConfig.URL_ENCODE_PARTITIONING,
      TableConfig.PARTITION_METAFILE_USE_BASE_FORMAT, TableConfig.CDC_ENABLED, TableConfig.DATABASE_NAME,
      TableConfig.TIMELINE_TIMEZONE, TableConfig.METADATA_PARTITIONS, TableConfig.METADATA_PARTITIONS_INFLIGHT,
      TableConfig.CREATE_SCHEMA, TableConfig.CHECKSUM);

  /** Storage settings with Sluice's prefix, read by the storage layer ({@code Storages}, sluice-hadoop). */
  private static final List<String> STORAGE_KEYS = List.of("sluice.storage.local", "sluice.hadoop.conf.dir");

  private static final Set<String> KNOWN = known();

  private KnownKeys() {
  }

  /** The Hudi keys Sluice accepts and knowingly ignores, each with the reason. */
  public static List<Ignored> ignoredHudiKeys() {
    return IGNORED;
  }

  /** Every known {@code hoodie.*} and {@code sluice.*} key, sorted. */
  public static Set<String> all() {
    return KNOWN;
  }

  /** True unless {@code key} has Sluice's or Hudi's prefix and is not a known key. */
  public static boolean isKnown(String key) {
    return !checked(key) || KNOWN.contains(key);
  }

  /** The unknown {@code hoodie.*} and {@code sluice.*} keys of {@code config}, in the order given. */
  public static List<Unknown> unknown(Config config) {
    List<Unknown> out = new ArrayList<>();
    for (String key : config.asMap().keySet()) {
      if (!isKnown(key)) {
        out.add(closest(key));
      }
    }
    return out;
  }

  /**
   * Refuses {@code config} (BAD_CONFIG) if {@link ConfigKeys#STRICT_CONFIG} is on and it has an unknown key; the
   * message names every unknown key and the closest known one.
   */
  static void requireKnownIfStrict(Config config) {
    if (!config.get(ConfigKeys.STRICT_CONFIG)) {
      return;
    }
    List<Unknown> unknown = unknown(config);
    if (!unknown.isEmpty()) {
      throw SluiceException.badRequest("Options", String.join("; ", unknown.stream().map(Unknown::describe).toList()),
          "Correct or remove " + (unknown.size() == 1 ? "it" : "them") + " (" + ConfigKeys.STRICT_CONFIG.name()
              + "=true refuses unknown hoodie.* and sluice.* keys).");
    }
  }

  private static boolean checked(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return k.startsWith("hoodie.") || k.startsWith("sluice.");
  }

  private static Unknown closest(String key) {
    String best = "";
    int bestDistance = Integer.MAX_VALUE;
    for (String k : KNOWN) {
      int d = distance(key, k);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return new Unknown(key, best, bestDistance);
  }

  /** Levenshtein distance: insertions, deletions and substitutions of one character. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  private static Set<String> known() {
    Set<String> s = new TreeSet<>();
    ConfigKeys.all().forEach(k -> s.add(k.name()));
    s.addAll(TABLE_PROPERTIES);
    s.addAll(STORAGE_KEYS);
    IGNORED.forEach(i -> s.add(i.key()));
    return Collections.unmodifiableSet(s);
  }
}
