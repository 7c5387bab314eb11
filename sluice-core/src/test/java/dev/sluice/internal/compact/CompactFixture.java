package dev.sluice.internal.compact;

import dev.sluice.internal.service.TableInternals;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.api.QueryType;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;

/** Shared helpers of the compaction tests: a MoR trips table, an expected-rows model, listings. */
final class CompactFixture {
  /** Options that send every update to the logs (no small-file merging) and run no table service by themselves. */
  static final Map<String, String> BASE = Map.of("hoodie.parquet.small.file.limit", "0",
      "hoodie.clean.automatic", "false", "hoodie.archive.automatic", "false", "sluice.write.parallelism", "2");

  private CompactFixture() {
  }

  static TableSpec spec() {
    return TripFixture.spec().type(TableType.MERGE_ON_READ).build();
  }

  static Table create(Path dir, Map<String, String> extra) {
    Map<String, String> o = new HashMap<>(BASE);
    o.putAll(extra);
    return TripFixture.create(dir, spec(), o);
  }

  /** Snapshot rows as id → JSON text. */
  static Map<String, String> snapshot(Table t) {
    return text(TripFixture.rows(t));
  }

  /** Read-optimized rows as id → JSON text. */
  static Map<String, String> readOptimized(Table t) {
    return text(TripFixture.rows(t.newScan().queryType(QueryType.READ_OPTIMIZED).open()));
  }

  static Map<String, String> text(Map<String, GenericRecord> rows) {
    Map<String, String> out = new TreeMap<>();
    rows.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  /** The expected state: upserts with event-time ordering (tests never reuse an ordering value), deletes. */
  static final class Model {
    private final Map<String, GenericRecord> rows = new TreeMap<>();

    void upsert(List<GenericRecord> records) {
      for (GenericRecord r : records) {
        String id = r.get("id").toString();
        GenericRecord old = rows.get(id);
        if (old == null || (long) old.get("ts") < (long) r.get("ts")) {
          rows.put(id, r);
        }
      }
    }

    void delete(List<GenericRecord> records) {
      for (GenericRecord r : records) {
        rows.remove(r.get("id").toString());
      }
    }

    Map<String, String> expected() {
      return text(rows);
    }
  }

  /** Trips ids {@code from..from+n-1} with ordering value {@code ts} and a name marking the round. */
  static List<GenericRecord> round(int from, int n, long ts, String name) {
    List<GenericRecord> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      out.add(TripFixture.trip(String.format("id-%06d", i), ts, "p" + (i % 2), name, i + ts / 10.0));
    }
    return out;
  }

  /** The latest slices of every partition. */
  static List<FileSlice> latestSlices(Table t) {
    FileSystemView v = TableInternals.fileSystemView(t);
    List<FileSlice> out = new ArrayList<>();
    for (String p : v.partitions()) {
      out.addAll(v.latestSlices(p));
    }
    return out;
  }

  /** The commit metadata of a completed instant. */
  static CommitMetadata metadata(Table t, String time) {
    Instant i = TableInternals.timeline(t).find(time).orElseThrow();
    return new TimelineStore(t.storage(), t.location()).readCommitMetadata(i).orElseThrow();
  }

  /** Names of the files under {@code .hoodie/} (timeline files). */
  static List<String> timelineFiles(Path table) {
    try (Stream<Path> s = Files.list(table.resolve(".hoodie"))) {
      return s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Relative paths of the table's base files. */
  static List<String> baseFiles(Path table) {
    try (Stream<Path> s = Files.walk(table)) {
      return s.filter(Files::isRegularFile).map(p -> table.relativize(p).toString())
          .filter(p -> !p.startsWith(".hoodie") && p.endsWith(FileNames.PARQUET_EXTENSION)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
