package dev.sluice.storageit;

import dev.sluice.internal.service.TableInternals;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.api.Config;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.storage.Storages;
import dev.sluice.internal.timeline.Instant;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** Helpers for tables on a remote store: creating, reopening as another process would, and looking at files. */
final class RemoteTables {
  private RemoteTables() {
  }

  /** The options of every table here: the store's settings plus small bloom filters (fast tests). */
  static Config options(Map<String, String> settings) {
    Map<String, String> o = new HashMap<>(settings);
    o.put("hoodie.index.bloom.num_entries", "1000");
    return Config.of(o);
  }

  /**
   * Creates a CoW trips table (partitioned by {@code part}) at {@code location}, storage chosen by scheme, at table
   * version 6: the scenarios check version 6's file names (appended log versions on HDFS, {@code .hoodie/<instant>}
   * files) and Hudi 0.15.0 reads their tables.
   */
  static Table createTrips(String location, Map<String, String> settings) {
    return Tables.create(location, TripFixture.spec().tableVersion(6).build(), options(settings));
  }

  /** The table opened afresh, storage chosen by scheme, as a new process would. */
  static Table reopen(String location, Map<String, String> settings) {
    return Tables.open(location, options(settings));
  }

  /** A fresh storage for the location (not shared with any table handle). */
  static Storage storage(String location, Map<String, String> settings) {
    return Storages.forLocation(location, settings);
  }

  /** Times of the completed instants. */
  static List<String> completedTimes(Table t) {
    // writes only: rolling back a killed write adds a rollback instant, which is not a commit
    return TableInternals.timeline(t).instants().stream().filter(i -> i.isCompleted() && i.action().writesData())
        .map(Instant::time).toList();
  }

  /** Names of the files directly in {@code dir}. */
  static List<String> names(Storage storage, String dir) {
    try {
      return storage.list(dir).stream().filter(f -> !f.directory()).map(FileInfo::name).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Names of the data files of {@code instant} in the table's partitions {@code parts}. */
  static List<String> dataFilesOf(Storage storage, String location, String instant, List<String> parts) {
    List<String> out = new ArrayList<>();
    for (String p : parts) {
      for (String n : names(storage, StoragePaths.join(location, p))) {
        if (n.endsWith(".parquet") && n.contains("_" + instant + ".")) {
          out.add(p + "/" + n);
        }
      }
    }
    return out;
  }

  /** A key-only delete row for {@code id} in partition {@code part}. */
  static GenericRecord key(Table t, String id, String part) {
    GenericData.Record k = new GenericData.Record(t.keySchema());
    k.put("id", id);
    k.put("part", part);
    return k;
  }
}
