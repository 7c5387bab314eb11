package dev.sluice.api;

import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.error.Errors;
import dev.sluice.storage.Storage;
import dev.sluice.storage.Storages;
import dev.sluice.internal.table.ConfinedStorage;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.TimelineLayout;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/** Entry point: create or open a table at a location (a local path, or a URI such as {@code hdfs://...}). */
public final class Tables {
  private Tables() {
  }

  /** Opens the table at {@code location} with default options. */
  public static Table open(String location) {
    return open(location, Config.empty());
  }

  /** Opens the table at {@code location}; {@code options} holds write/read options and storage settings. */
  public static Table open(String location, Config options) {
    String base = normalize(location);
    return open(Storages.forLocation(base, options.asMap()), base, options);
  }

  /** Opens the table at {@code location} on a given storage (e.g. a test's fault-injecting one). */
  public static Table open(Storage storage, String location, Config options) {
    String base = normalize(location);
    KnownKeys.requireKnownIfStrict(options);
    storage = confined(storage, base, options);
    TableConfig tc = TableConfigStore.read(storage, base);
    // the one place the table version is looked at: everything that differs between versions asks the layout
    TimelineLayout layout = TimelineLayout.of(tc, "at " + base);
    return new Table(storage, base, TableSettings.withMetadataDefault(TableSettings.withTableConcurrencyMode(options,
        tc, base), tc), layout);
  }

  /** Creates a table; fails if one exists at {@code location}. */
  public static Table create(String location, TableSpec spec, Config options) {
    String base = normalize(location);
    return create(Storages.forLocation(base, options.asMap()), base, spec, options);
  }

  /** Creates a table on a given storage. */
  public static Table create(Storage storage, String location, TableSpec spec, Config options) {
    String base = normalize(location);
    KnownKeys.requireKnownIfStrict(options);
    storage = confined(storage, base, options);
    TableConfig.Builder b = TableConfig.builder()
        .name(spec.name())
        .type(spec.type())
        .recordKeyFields(spec.recordKeyFields())
        .partitionFields(spec.partitionFields())
        .hiveStylePartitioning(spec.hiveStylePartitioning())
        .tableVersion(spec.tableVersion())
        .commitTimeOrdering(spec.mergeMode() == MergeMode.COMMIT_TIME_ORDERING);
    if (spec.tableVersion() == 6) {
      b.payloadClass(spec.mergeMode().payloadClass());
    }
    spec.precombineField().ifPresent(b::precombineField);
    b.property(Table.CREATE_SCHEMA, spec.schema().toString());
    for (Map.Entry<String, String> e : spec.properties().entrySet()) {
      b.property(e.getKey(), e.getValue());
    }
    TableConfig tc = b.build();
    spec.properties().entrySet().stream().filter(e -> e.getKey().equals(ConfigKeys.TABLE_CONCURRENCY_MODE.name()))
        .findFirst().ifPresent(e -> requireMode(e.getValue()));
    // checked before the table is written: a writer option that contradicts the mode fails here, not on first write
    Config resolved = TableSettings.withTableConcurrencyMode(options, tc, base);
    TimelineLayout layout = TimelineLayout.of(tc);
    TableLayout.initialize(storage, base, tc);
    // the handle decides on the metadata table as one from open does: its first action builds it (default on; not on
    // versions 8/9, whose changes run without it: Table's forChanges)
    return new Table(storage, base, TableSettings.withMetadataDefault(resolved, tc), layout);
  }

  private static void requireMode(String value) {
    String v = value.trim().toUpperCase(java.util.Locale.ROOT);
    if (!v.equals("SINGLE_WRITER") && !v.equals("OPTIMISTIC_CONCURRENCY_CONTROL")) {
      throw Errors.badConfig(ConfigKeys.TABLE_CONCURRENCY_MODE.name(), value,
          "SINGLE_WRITER or OPTIMISTIC_CONCURRENCY_CONTROL");
    }
  }

  /**
   * {@code schema} as base and log files store it: Hudi's five {@code _hoodie_*} meta fields first, then the user
   * fields (meta fields already in {@code schema} are replaced).
   */
  public static Schema withMetaFields(Schema schema) {
    return MetaFields.withMetaFields(MetaFields.withoutMetaFields(schema));
  }

  /**
   * The table's storage, refusing any change outside {@code base} (and the lock folder, if one is configured): a
   * handle never writes outside its table, whatever a value or a plan says.
   */
  private static Storage confined(Storage storage, String base, Config options) {
    String lockFolder = options.get(ConfigKeys.LOCK_FILESYSTEM_PATH);
    return ConfinedStorage.of(storage, base, lockFolder.isEmpty() ? List.of() : List.of(lockFolder));
  }

  private static String normalize(String location) {
    String l = location.trim();
    while (l.length() > 1 && l.endsWith("/")) {
      l = l.substring(0, l.length() - 1);
    }
    if (!l.contains(":") && !l.startsWith("/")) {
      l = java.nio.file.Path.of(l).toAbsolutePath().normalize().toString();
    }
    return l;
  }
}
