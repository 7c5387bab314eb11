package dev.sluice.cli;

import dev.sluice.api.CatalogSync;
import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice sync}: create or update the table's definition and partitions in a Hive Metastore, as Hudi's Hive
 * sync (hms mode) does. The sync itself is the {@code hive} {@link CatalogSync} found on the class path
 * ({@code sluice-hive-sync}); this command only turns its options into the sync's keys.
 */
@Command(name = "sync", description = "Create or update the table in a Hive Metastore (Copy-on-Write: one table; "
    + "Merge-on-Read: <name>_ro, <name>_rt and <name>), its columns and its partitions since the last synced commit "
    + "(docs/hive-sync.md).")
final class SyncCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--metastore", paramLabel = "URI", description = "The metastore's Thrift URI, thrift://HOST:PORT "
      + "(default: hoodie.datasource.hive_sync.metastore.uris).")
  String metastore;

  @Option(names = "--database", paramLabel = "DB", description = "The database (default: "
      + "hoodie.datasource.hive_sync.database, else 'default').")
  String database;

  @Option(names = "--table", paramLabel = "NAME", description = "The table name in the metastore (default: "
      + "hoodie.datasource.hive_sync.table, else the table's hoodie.table.name).")
  String name;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Config options = common.config();
    if (metastore != null) {
      if (!metastore.matches("thrift://[^/:]+:\\d+/?")) {
        throw SluiceException.badInput("--metastore " + metastore, null, "it is not a metastore Thrift URI",
            "thrift://HOST:PORT");
      }
      options = options.with(ConfigKeys.HIVE_SYNC_METASTORE_URIS.name(), metastore);
    }
    if (database != null) {
      options = options.with(ConfigKeys.HIVE_SYNC_DATABASE.name(), database);
    }
    if (name != null) {
      options = options.with(ConfigKeys.HIVE_SYNC_TABLE.name(), name);
    }
    CatalogSync sync = CatalogSync.find("hive").orElseThrow(() -> SluiceException.unsupported(
        "Hive Metastore sync without the sluice-hive-sync module", "put sluice-hive-sync on the class path"));
    Table t = Tables.open(table, options);
    List<String> changes = sync.sync(t, options);
    PrintWriter out = spec.commandLine().getOut();
    if (changes.isEmpty()) {
      out.println("in sync: nothing changed in the metastore");
    }
    changes.forEach(out::println);
    out.flush();
    return 0;
  }
}
