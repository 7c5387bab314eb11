package dev.sluice.spark;

import dev.sluice.api.CatalogSync;
import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real {@link CatalogSync}, registered through {@code META-INF/services} in this module's test resources and found
 * by {@link java.util.ServiceLoader} as the Hive sync is: it records, per sync, the table's location, its last
 * completed commit as the sync sees it and the database option; database {@code refuse} makes it fail, as a
 * metastore that is down does.
 */
public final class RecordingCatalogSync implements CatalogSync {
  /** What each sync saw: {@code location commit database}. */
  static final List<String> SYNCED = new CopyOnWriteArrayList<>();

  /** For ServiceLoader. */
  public RecordingCatalogSync() {
  }

  @Override
  public String name() {
    return "recording";
  }

  @Override
  public boolean enabled(Config options) {
    return options.get(ConfigKeys.META_SYNC_ENABLE);
  }

  @Override
  public List<String> sync(Table table, Config options) {
    String db = options.get(ConfigKeys.HIVE_SYNC_DATABASE);
    if (db.equals("refuse")) {
      throw SluiceException.conflict("Syncing " + table.location(), "the recording catalog refuses database " + db);
    }
    String last = table.inspect().lastCompletedCommit().orElse("none");
    SYNCED.add(table.location() + " " + last + " " + db);
    return List.of("recorded " + last);
  }
}
