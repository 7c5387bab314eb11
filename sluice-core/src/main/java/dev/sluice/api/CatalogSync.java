package dev.sluice.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * A catalog that a table's definition is kept in step with (Hive Metastore: module {@code sluice-hive-sync}), found
 * through {@link ServiceLoader} so that the engine does not depend on any catalog's client. {@link Table#write}
 * runs every installed sync that is {@linkplain #enabled enabled} after each commit; a failure there is logged and
 * never fails the commit, which is already durable (the next commit or an explicit {@link #sync} catches up).
 */
public interface CatalogSync {
  /** A short name for messages and the command line ({@code hive}). */
  String name();

  /** Whether {@code options} turn this sync on after each commit ({@code hoodie.datasource.meta.sync.enable}). */
  boolean enabled(Config options);

  /**
   * Brings the catalog in step with the table's completed commits; throws a {@link SluiceException} naming the
   * catalog when it cannot.
   *
   * @param table the opened table
   * @param options the sync's settings (the table's options, with any overrides)
   * @return what changed in the catalog, one line each, in the order done (empty when it was in step)
   */
  List<String> sync(Table table, Config options);

  /** The syncs on the class path, in {@link ServiceLoader} order. */
  static List<CatalogSync> installed() {
    List<CatalogSync> out = new ArrayList<>();
    ServiceLoader.load(CatalogSync.class).forEach(out::add);
    return List.copyOf(out);
  }

  /** The installed sync named {@code name}, if any. */
  static Optional<CatalogSync> find(String name) {
    return installed().stream().filter(s -> s.name().equals(name)).findFirst();
  }
}
