package dev.sluice.hive;

import dev.sluice.api.CatalogSync;
import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.api.Table;
import java.util.List;

/** The Hive Metastore as a {@link CatalogSync} ({@code hive}), registered for {@link java.util.ServiceLoader}. */
public final class HiveCatalogSync implements CatalogSync {
  /** For ServiceLoader. */
  public HiveCatalogSync() {
  }

  @Override
  public String name() {
    return "hive";
  }

  @Override
  public boolean enabled(Config options) {
    return options.get(ConfigKeys.META_SYNC_ENABLE);
  }

  @Override
  public List<String> sync(Table table, Config options) {
    return HiveSync.run(table, HiveSyncSettings.of(options, table.inspect()));
  }
}
