package dev.sluice.tools.health;

import dev.sluice.api.Table;
import dev.sluice.api.TripFixture;
import dev.sluice.api.TableType;
import dev.sluice.api.CommitInfo;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.TableInspection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;

/**
 * Real tables for the health tests: {@value #GROUPS} file groups of {@value #PER_GROUP} trips each in partition p0
 * (bulk insert sorts keys, so group k holds ids k*200 .. k*200+199), no small-file handling (updates of a
 * Merge-on-Read table go to logs).
 */
final class HealthTables {
  static final int GROUPS = 12;
  static final int PER_GROUP = 200;

  private HealthTables() {
  }

  static Table create(Path dir, TableType type, Map<String, String> extra) {
    return create(dir, type, extra, dev.sluice.api.TableSpec.DEFAULT_TABLE_VERSION);
  }

  /** As {@link #create(Path, TableType, Map)}, at table version {@code version}. */
  static Table create(Path dir, TableType type, Map<String, String> extra, int version) {
    Map<String, String> o = new HashMap<>(Map.of("hoodie.copyonwrite.record.size.estimate", "1000",
        "hoodie.parquet.max.file.size", String.valueOf(1000 * PER_GROUP), "hoodie.parquet.small.file.limit", "0",
        "hoodie.clean.automatic", "false", "hoodie.archive.automatic", "false"));
    o.putAll(extra);
    Table t = TripFixture.create(dir, TripFixture.spec().type(type).tableVersion(version).build(), o);
    t.bulkInsert(TripFixture.trips(0, GROUPS * PER_GROUP, 1, 1).iterator());
    return t;
  }

  /** One update in each file group: keys spread over the whole table. */
  static List<GenericRecord> scattered(long ts) {
    List<GenericRecord> out = new ArrayList<>();
    for (int g = 0; g < GROUPS; g++) {
      out.add(TripFixture.trip(String.format("id-%06d", g * PER_GROUP + 50), ts, "p0", "scattered-" + ts, g));
    }
    return out;
  }

  /** {@link #GROUPS} updates of neighbouring keys, all in the first file group. */
  static List<GenericRecord> clustered(long ts) {
    List<GenericRecord> out = new ArrayList<>();
    for (int i = 0; i < GROUPS; i++) {
      out.add(TripFixture.trip(String.format("id-%06d", i), ts, "p0", "clustered-" + ts, i));
    }
    return out;
  }

  /** Updates of every record of the table. */
  static List<GenericRecord> everything(long ts) {
    List<GenericRecord> out = new ArrayList<>();
    for (GenericRecord r : TripFixture.trips(0, GROUPS * PER_GROUP, 1, ts)) {
      r.put("name", "rewritten-" + ts);
      out.add(r);
    }
    return out;
  }

  static CommitInfo metadata(Table t, String instantTime) {
    TableInspection inspection = t.inspect();
    InstantInfo i = inspection.timeline().stream().filter(x -> x.isCompleted() && x.time().equals(instantTime))
        .findFirst().orElseThrow();
    return inspection.commitMetadata(i).orElseThrow();
  }

  /** Data files of partition p0 whose name contains {@code part}, with their sizes. */
  static Map<String, Long> files(Path table, String part) {
    Map<String, Long> out = new HashMap<>();
    try (Stream<Path> s = Files.list(table.resolve("p0"))) {
      for (Path p : s.toList()) {
        String n = p.getFileName().toString();
        if (n.contains(part) && !n.endsWith(".crc")) {
          out.put(n, Files.size(p));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }
}
